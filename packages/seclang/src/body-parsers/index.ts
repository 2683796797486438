// Body processor registry: REQBODY_PROCESSOR name → parser; duplicates refused, lookup
// case-insensitive.

import { json } from './json.ts';
import { multipart } from './multipart.ts';
import type { BodyParser } from './types.ts';
import { urlencoded } from './urlencoded.ts';
import { xml } from './xml.ts';

const registry = new Map<string, BodyParser>();

export function registerBodyParser(parser: BodyParser): void {
  const key = parser.name.toUpperCase();
  if (registry.has(key)) throw new Error(`body processor ${parser.name} is already registered`);
  registry.set(key, parser);
}

export function getBodyParser(name: string): BodyParser | undefined {
  return registry.get(name.toUpperCase());
}

for (const p of [json, multipart, urlencoded, xml]) registerBodyParser(p);
