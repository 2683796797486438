// Include / IncludeOptional: load other files (a `*` glob in the file name part, lexical order),
// relative to the including file. Example: Include /usr/share/modsecurity-crs/rules/*.conf
import { dirname } from 'node:path';
import type { DirectiveDef } from './types.ts';

export const include: DirectiveDef = {
  name: 'Include',
  apply: (d, state) => state.include(d.args[0] ?? '', dirname(d.file), false),
};

export const includeOptional: DirectiveDef = {
  name: 'IncludeOptional',
  apply: (d, state) => state.include(d.args[0] ?? '', dirname(d.file), true),
};
