// The value types of the Rules language (wirefilter's `Type`): written out, no macros.

export type Type =
  | { readonly kind: 'Bool' }
  | { readonly kind: 'Int' }
  | { readonly kind: 'Ip' }
  | { readonly kind: 'Bytes' }
  | { readonly kind: 'Array'; readonly of: Type }
  | { readonly kind: 'Map'; readonly of: Type };

export const Bool: Type = Object.freeze({ kind: 'Bool' });
export const Int: Type = Object.freeze({ kind: 'Int' });
export const Ip: Type = Object.freeze({ kind: 'Ip' });
export const Bytes: Type = Object.freeze({ kind: 'Bytes' });

export function arrayOf(of: Type): Type {
  return Object.freeze({ kind: 'Array', of });
}

export function mapOf(of: Type): Type {
  return Object.freeze({ kind: 'Map', of });
}

/** `Bytes`, `Array(Bytes)`, `Map(Array(Bytes))` — the spelling used in error messages and docs. */
export function typeName(type: Type): string {
  switch (type.kind) {
    case 'Array':
    case 'Map':
      return `${type.kind}(${typeName(type.of)})`;
    default:
      return type.kind;
  }
}

export function sameType(a: Type, b: Type): boolean {
  if (a.kind !== b.kind) return false;
  if ((a.kind === 'Array' || a.kind === 'Map') && (b.kind === 'Array' || b.kind === 'Map')) {
    return sameType(a.of, b.of);
  }
  return true;
}

/** Parses `Bytes`, `Array(Int)`, `Map(Array(Bytes))` (also accepted: `String` for Bytes, `Boolean`, `Integer`). */
export function parseTypeName(text: string): Type | undefined {
  const t = text.trim();
  const m = /^(Array|Map)\s*[(<](.*)[)>]$/.exec(t);
  if (m) {
    const inner = parseTypeName(m[2] ?? '');
    if (!inner) return undefined;
    return m[1] === 'Array' ? arrayOf(inner) : mapOf(inner);
  }
  switch (t) {
    case 'Bool':
    case 'Boolean':
      return Bool;
    case 'Int':
    case 'Integer':
      return Int;
    case 'Ip':
    case 'IP':
      return Ip;
    case 'Bytes':
    case 'String':
      return Bytes;
    default:
      return undefined;
  }
}
