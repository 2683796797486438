import { badRequest, type CairnError } from './errors.ts';

/**
 * Text PostgreSQL can't store: it refuses NUL (U+0000) in `text` and `jsonb`, and a lone UTF-16 surrogate
 * has no UTF-8 form (drivers silently turn it into U+FFFD). Request text is checked here before any
 * handler sees it, so such input is a 400 naming the parameter, never a 500 from the store.
 */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** NUL or any surrogate: a cheap first test (well-formed pairs are then told apart by UNSTORABLE). */
const SUSPECT = /[\0\uD800-\uDFFF]/;

/** What is wrong with `text` ("contains a NUL character (U+0000) at character 3"), or undefined if storable. */
export function textProblem(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  const found = UNSTORABLE.exec(text);
  if (!found) return undefined;
  const at = `at character ${found.index + 1}`;
  if (found[0] === '\0') return `contains a NUL character (U+0000) ${at}; text cannot contain it`;
  const unit = found[0].charCodeAt(0).toString(16).toUpperCase();
  return `contains an unpaired surrogate (\\u${unit}) ${at}, which is not valid Unicode`;
}

/** Where in a value (object keys and array indexes from the root) unstorable text was found, and why. */
export interface UnstorableText {
  path: (string | number)[];
  problem: string;
}

/**
 * The first string in `value` (at any depth, object keys included) that can't be stored, or undefined.
 * Walks with an explicit stack, so a deeply nested body can't overflow the call stack.
 */
export function findUnstorableText(value: unknown): UnstorableText | undefined {
  if (isFlatAndClean(value)) return undefined;
  const stack: Step[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if (typeof step.value === 'string') {
      const problem = textProblem(step.value);
      if (problem) return { path: pathOf(step), problem };
    } else if (Array.isArray(step.value)) {
      for (let i = step.value.length - 1; i >= 0; i--) {
        stack.push({ value: step.value[i], key: i, parent: step });
      }
    } else if (step.value !== null && typeof step.value === 'object') {
      const entries = Object.entries(step.value as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const keyProblem = textProblem(key);
        if (keyProblem) return { path: [...pathOf(step), key], problem: `has a name that ${keyProblem}` };
        stack.push({ value: child, key, parent: step });
      }
    }
  }
  return undefined;
}

/** The common case, cheaply: an object of strings (a query, headers) with nothing suspect in it. */
function isFlatAndClean(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const child = record[key];
    if (typeof child !== 'string' || SUSPECT.test(key) || SUSPECT.test(child)) return false;
  }
  return true;
}

/** A value being walked, linked to its parent so a path is only built for the one that is reported. */
interface Step {
  value: unknown;
  key: string | number | undefined;
  parent: Step | undefined;
}

function pathOf(step: Step): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** Where request text comes from; decides the message's wording and the error's location. */
export type TextSource = 'query' | 'params' | 'headers' | 'body' | 'form';

const SOURCE_NAMES: Record<TextSource, string> = {
  query: 'Query parameter',
  params: 'Path parameter',
  headers: 'Header',
  body: 'Body field',
  form: 'Form field',
};

/** A parameter name fit for a message: control characters and surrogates shown as escapes. */
export function printableName(name: string): string {
  return name.replace(/[\0-\x1f\x7f\uD800-\uDFFF]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/** The 400 for unstorable or undecodable text at `path` of `source` (e.g. "Query parameter q contains …"). */
export function unstorableTextError(
  source: TextSource,
  path: (string | number)[],
  problem: string,
): CairnError {
  const name = path.map((part) => printableName(String(part))).join('.');
  if (source === 'body') {
    const pointer = path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
    return badRequest(`${name === '' ? 'Request body' : `Body field ${name}`} ${problem}`, { pointer });
  }
  return badRequest(`${SOURCE_NAMES[source]} ${name} ${problem}`, { parameter: name });
}

/**
 * Throws the 400 if `value` holds text PostgreSQL can't store. For services with their own decode layer
 * (the edge API's JSON bodies, identity's HTTP Basic credentials); routes get it from createApp's hook.
 */
export function rejectUnstorableText(value: unknown, source: TextSource): void {
  const found = findUnstorableText(value);
  if (found) throw unstorableTextError(source, found.path, found.problem);
}
