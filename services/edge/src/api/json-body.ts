import { type CairnError, decodeUtf8 } from '@cairn/kit';
import { invalidBody } from './errors.ts';

/**
 * How deep a request body may nest. The deepest body the API takes (a rule's
 * `action_parameters.overrides.rules[n]` in a ruleset) is 7 levels; wirefilter bounds expressions at 128.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The depth at which `text` first nests deeper than `max`, counted on the raw text before any parser
 * runs (brackets inside strings are text), or undefined. Linear, no recursion: a 5,000-deep body costs
 * one pass, and nothing downstream ever walks it.
 */
export function nestingBeyond(text: string, max: number): number | undefined {
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

/**
 * The edge API's JSON body: UTF-8 only (a byte that is not is a 400, never a silent U+FFFD), nested at
 * most `MAX_JSON_DEPTH`, then parsed; an empty body is no body. NUL and lone surrogates inside strings
 * are refused afterwards by kit's request-text check, with the pointer.
 */
export function parseJsonBody(bytes: Buffer): { value: unknown } | { error: CairnError } {
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) return { error: invalidBody('', `invalid JSON: the body ${decoded.problem}`) };
  const text = decoded.text;
  if (text.trim() === '') return { value: undefined };
  const at = nestingBeyond(text, MAX_JSON_DEPTH);
  if (at !== undefined) {
    return {
      error: invalidBody(
        '',
        `invalid JSON: the body is nested deeper than ${MAX_JSON_DEPTH} levels (at character ${at + 1})`,
      ),
    };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: invalidBody('', `invalid JSON: ${(error as Error).message}`) };
  }
}
