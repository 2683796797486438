// The argued exceptions of the differential harness (bench/data/waf-differential-exceptions.yaml, after the
// CRS regression overrides.yaml): each entry names the requests it covers and why Cairn passing them while
// ModSecurity blocks is right, or (`pending:`) the open work that will make Cairn block them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { RecordedRequest } from './corpus.ts';

export const EXCEPTIONS_FILE = fileURLToPath(
  new URL('../../../../bench/data/waf-differential-exceptions.yaml', import.meta.url),
);

export interface ExceptionEntry {
  reason: string;
  /** Set while the difference is a known bug being fixed: what fixes it. Not an argued exception. */
  pending?: string;
  match: {
    /** Paranoia levels it applies to (default all). */
    pl?: number[];
    location?: string[];
    /** Regular expressions. */
    source?: string;
    url?: string;
    body?: string;
    /** Matched against the whole request as text: request line, headers, body. */
    request?: string;
    /** Every ModSecurity rule that fired (scoring rules aside) is one of these. */
    modsecRules?: number[];
  };
}

/** Rules that only add up or report the score: they say nothing about what was found. */
export const SCORING_RULES = new Set([949110, 959100, 980130, 980140]);

export function loadExceptions(path = EXCEPTIONS_FILE): ExceptionEntry[] {
  const doc = parse(readFileSync(path, 'utf8')) as { exceptions?: ExceptionEntry[] } | null;
  return doc?.exceptions ?? [];
}

export interface Difference {
  request: RecordedRequest;
  location: string;
  pl: number;
  modsecRules: number[];
}

export function matches(e: ExceptionEntry, d: Difference): boolean {
  const m = e.match;
  if (m.pl && !m.pl.includes(d.pl)) return false;
  if (m.location && !m.location.includes(d.location)) return false;
  if (m.source && !new RegExp(m.source).test(d.request.source ?? '')) return false;
  if (m.url && !new RegExp(m.url).test(d.request.url)) return false;
  if (m.body && !new RegExp(m.body, 's').test(d.request.body ?? '')) return false;
  if (m.request && !new RegExp(m.request, 's').test(requestText(d.request))) return false;
  if (m.modsecRules) {
    const fired = d.modsecRules.filter((id) => !SCORING_RULES.has(id));
    if (fired.length === 0 || !fired.every((id) => m.modsecRules?.includes(id))) return false;
  }
  return true;
}

const requestText = (r: RecordedRequest) =>
  `${r.method} ${r.url}\n${r.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n\n${r.body ?? ''}`;

export const exceptionFor = (list: readonly ExceptionEntry[], d: Difference) =>
  list.find((e) => matches(e, d));
