/** One command in commands/catalogue.json: its words, its one line, and where its code is. */
export interface CatalogueEntry {
  name: string;
  describe: string;
  /** The module under commands/, e.g. "./keys.ts". */
  module: string;
  /** The module's export that is the command. */
  export: string;
}

export interface HelpAnswer {
  text: string;
  code: number;
  stream: 'stdout' | 'stderr';
}

export function readCatalogue(): CatalogueEntry[];
export function overview(catalogue: readonly CatalogueEntry[]): string;
export function groupMembers(
  catalogue: readonly CatalogueEntry[],
  words: readonly string[],
): CatalogueEntry[];
export function groupHelp(catalogue: readonly CatalogueEntry[], words: readonly string[]): string;
export function helpOnly(
  argv: readonly string[],
  catalogue?: readonly CatalogueEntry[],
): HelpAnswer | undefined;
