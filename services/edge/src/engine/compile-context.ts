import type { Catalogue } from '../managed/catalogue.ts';
import type { CrsEngines } from './crs-engines.ts';

/** What compiling a zone's plan needs besides the zone's rows: the catalogue and the loaded CRS engines. */
export interface CompileContext {
  catalogue: Catalogue;
  engines: CrsEngines;
  /** Problems met while compiling (a missing CRS, an expression that no longer parses), said once. */
  warnings: string[];
}
