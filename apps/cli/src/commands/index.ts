import type { Command, CommandSpec } from '../command.ts';
import { type CatalogueEntry, readCatalogue } from '../help.js';

/**
 * Every cairn command: names and descriptions in catalogue.json (help reads them without loading any
 * command), the code in the module each entry names, imported only when that command runs. A name given
 * twice is a programming error caught at load.
 */
export const catalogue: readonly CatalogueEntry[] = refuseDuplicates(readCatalogue());

function refuseDuplicates(list: CatalogueEntry[]): CatalogueEntry[] {
  const names = new Set<string>();
  for (const c of list) {
    if (names.has(c.name)) throw new Error(`commands/catalogue.json: command "${c.name}" is listed twice`);
    names.add(c.name);
  }
  return list;
}

/** Imports the module of one command (and so only the services that command uses). */
export async function loadCommand(entry: CatalogueEntry): Promise<Command> {
  // A template literal the bundler understands (the package build bundles every ./<name>.ts here).
  const name = /^\.\/([a-z0-9-]+)\.ts$/.exec(entry.module)?.[1];
  if (!name)
    throw new Error(
      `commands/catalogue.json: "${entry.name}" names the module ${entry.module}; expected ./<name>.ts`,
    );
  const module = (await import(/* @vite-ignore */ `./${name}.ts`)) as Record<string, CommandSpec | undefined>;
  const spec = module[entry.export];
  if (typeof spec?.run !== 'function') {
    throw new Error(
      `commands/catalogue.json: "${entry.name}" names ${entry.module} export ${entry.export}, which is not a command`,
    );
  }
  return { ...spec, name: entry.name, describe: entry.describe };
}
