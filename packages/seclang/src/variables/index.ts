// Variable registry: SecLang name → definition; duplicates refused, lookup case-insensitive.

import type { VariableDef } from '../types.ts';
import * as args from './args.ts';
import * as connection from './connection.ts';
import * as files from './files.ts';
import * as geo from './geo.ts';
import * as matched from './matched.ts';
import * as multipart from './multipart.ts';
import * as body from './request-body.ts';
import * as headers from './request-headers.ts';
import * as line from './request-line.ts';
import { responseVariables } from './response.ts';
import * as tx from './tx.ts';
import { XML } from './xml.ts';

const registry = new Map<string, VariableDef>();

export function registerVariable(def: VariableDef): void {
  const key = def.name.toUpperCase();
  if (registry.has(key)) throw new Error(`variable ${def.name} is already registered`);
  registry.set(key, def);
}

export function getVariable(name: string): VariableDef | undefined {
  return registry.get(name.toUpperCase());
}

function isVariable(v: unknown): v is VariableDef {
  return typeof v === 'object' && v !== null && 'kind' in v && 'entries' in v;
}

for (const mod of [args, connection, files, geo, matched, multipart, body, headers, line, tx]) {
  for (const value of Object.values(mod)) if (isVariable(value)) registerVariable(value);
}
for (const def of [XML, ...multipart.multipartFlagVariables, ...responseVariables]) registerVariable(def);
