import { decodeUtf8 } from './utf8.ts';

/**
 * How deep a JSON request body may nest, for every service. The deepest body any API takes (an edge
 * rule's `action_parameters.overrides.rules[n]` in a ruleset) is 7 levels.
 */
const MAX_JSON_DEPTH = 64;

/**
 * The index at which `text` first nests deeper than `max`, counted on the raw text before any parser
 * runs (brackets inside strings are text), or undefined. Linear, no recursion: a 5,000-deep body costs
 * one pass, and nothing downstream ever walks it.
 */
function nestingBeyond(text: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return undefined;
}

/** Why a body's text is too deep to parse ("is nested deeper than 64 levels (at character 65)"). */
export function tooDeep(text: string): string | undefined {
  const at = nestingBeyond(text, MAX_JSON_DEPTH);
  return at === undefined
    ? undefined
    : `is nested deeper than ${MAX_JSON_DEPTH} levels (at character ${at + 1})`;
}

/**
 * A strict JSON body: UTF-8 only (a byte that is not is refused, never a silent U+FFFD), nested at most
 * `MAX_JSON_DEPTH`, then parsed; an empty body is no body. A refusal says what is wrong (`problem`,
 * e.g. "the body is not valid UTF-8: …", or JSON.parse's message); each API words it in its own shape.
 */
export function parseJsonBody(bytes: Buffer): { value: unknown } | { problem: string } {
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) return { problem: `the body ${decoded.problem}` };
  const text = decoded.text;
  if (text.trim() === '') return { value: undefined };
  const deep = tooDeep(text);
  if (deep) return { problem: `the body ${deep}` };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
