import { invalidParameter } from '../errors.ts';
import { parseBoolean, type RawQuery, single } from '../search/params.ts';

/**
 * Parameters of the edit functions, by their HTTP names. Over HTTP they are the query string (a repeated
 * parameter arrives as an array and is refused); in-process callers may pass numbers and booleans.
 */
export type ApiParams = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;

const MAX_TEXT = 2000;

/** Reads one endpoint's parameters; names it does not take are refused, so a typo never drops a change. */
export class ParamReader {
  private readonly raw: RawQuery = {};

  constructor(params: ApiParams, allowed: readonly string[]) {
    const known = new Set(allowed);
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined) continue;
      if (!known.has(name)) {
        throw invalidParameter(
          name.slice(0, 60),
          `this endpoint takes no parameter "${name.slice(0, 60)}"; it takes ${allowed.join(', ')}`,
        );
      }
      this.raw[name] = Array.isArray(value) ? [...(value as readonly string[])] : String(value);
    }
  }

  /** The parameter's text, once; too long a value is refused before anything looks at it. */
  text(name: string): string | undefined {
    const value = single(this.raw, name);
    if (value !== undefined && value.length > MAX_TEXT) {
      throw invalidParameter(name, `at most ${MAX_TEXT} characters`);
    }
    return value;
  }

  required(name: string, what: string): string {
    const value = this.text(name);
    if (value === undefined || value.trim() === '')
      throw invalidParameter(name, `${name} is required: ${what}`);
    return value;
  }

  has(name: string): boolean {
    return this.raw[name] !== undefined;
  }

  /** `dry_run`: validate and answer with what would be created, writing nothing. Default false. */
  dryRun(): boolean {
    const value = this.text('dry_run');
    return value === undefined ? false : parseBoolean('dry_run', value);
  }
}
