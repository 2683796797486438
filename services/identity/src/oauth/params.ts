/** Request parameters as single strings; names given more than once are listed apart (RFC 6749 §3.1, §3.2). */
export interface Params {
  values: Record<string, string>;
  repeated: Set<string>;
}

export function collectParams(...sources: unknown[]): Params {
  const values: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const [name, raw] of Object.entries(source as Record<string, unknown>)) {
      const list = Array.isArray(raw) ? raw : [raw];
      for (const value of list) {
        if (typeof value !== 'string') continue;
        if (name in values && values[name] !== value) repeated.add(name);
        else if (Array.isArray(raw) && list.length > 1) repeated.add(name);
        values[name] ??= value;
      }
    }
  }
  return { values, repeated };
}
