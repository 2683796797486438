import type { Waf } from '@cairn/seclang';
import type { Catalogue } from '../managed/catalogue.ts';
import type { CrsProfile } from './crs-engines.ts';

/** What compiling a zone's plan needs besides the zone's rows: the catalogue and the loaded CRS engines. */
export interface CompileContext {
  catalogue: Catalogue;
  engines: { get(profile: CrsProfile): Waf };
  /** Problems met while compiling (a missing CRS, an expression that no longer parses), said once. */
  warnings: string[];
}
