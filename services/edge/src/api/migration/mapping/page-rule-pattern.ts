import { parse, print } from '@cairn/rules';
import type { PageRule, PageRuleTarget } from '../../page-rules/store.ts';
import { rulesScheme } from '../../rulesets/expression.ts';

/**
 * A page rule's URL target in the Rules language. Page rules match the whole URL, case-insensitively,
 * `*` standing for any characters, with or without a scheme: the equivalent is `wildcard` (ASCII
 * case-insensitive, whole value) on `http.request.full_uri`.
 *
 * - `matches P`   → `http.request.full_uri wildcard "<P>"`, `*://` put in front when P has no scheme and
 *                   `/` after a bare host (`example.com` → `*://example.com/`);
 * - `equals V`    → the same with V's `*` literal (`\*`);
 * - `contains V`  → `http.request.full_uri wildcard "*<V>*"` (V literal);
 * - `not_equal`, `not_contain` → `not` of the above.
 */
export function targetExpression(target: PageRuleTarget): string {
  const { operator, value } = target.constraint;
  switch (operator) {
    case 'matches':
      return wildcard(urlPattern(value, true));
    case 'equals':
      return wildcard(urlPattern(value, false));
    case 'not_equal':
      return `not ${wildcard(urlPattern(value, false))}`;
    case 'contains':
      return wildcard(`*${literal(value)}*`);
    case 'not_contain':
      return `not ${wildcard(`*${literal(value)}*`)}`;
    default:
      throw new Error(`page rule operator ${operator} has no translation`);
  }
}

/** A page rule's own match: its targets, all of which must match. */
export function pageRuleExpression(rule: PageRule): string {
  const parts = rule.targets.map(targetExpression);
  return parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' and ');
}

/**
 * Where a page rule really applies: only the highest-priority matching page rule acts on a request, so
 * a rule's match excludes the matches of every active page rule ranked above it.
 */
export function effectiveExpression(rule: PageRule, ranked: readonly PageRule[]): string {
  const own = pageRuleExpression(rule);
  const above = ranked
    .slice(0, ranked.indexOf(rule))
    .filter((r) => r.status === 'active')
    .map(pageRuleExpression);
  if (above.length === 0) return canonical(own);
  return canonical(`(${own}) and not (${above.map((a) => `(${a})`).join(' or ')})`);
}

/** Canonical text by the Rules-language printer (parsing also proves the translation is valid). */
export function canonical(expression: string): string {
  return print(parse(expression, rulesScheme(), { maxLength: 1 << 20 }).root);
}

const SCHEME = /^(?:https?|\*):\/\//i;

/** The URL pattern as a wildcard: `*` kept (when `stars`) or made literal; `**` collapses to `*`. */
function urlPattern(value: string, stars: boolean): string {
  const withScheme = SCHEME.test(value) ? value : `*://${value}`;
  const afterScheme = withScheme.slice(withScheme.indexOf('://') + 3);
  const bareHost = !afterScheme.includes('/') && !afterScheme.endsWith('*');
  const url = bareHost ? `${withScheme}/` : withScheme;
  if (!stars) {
    const scheme = url.slice(0, url.indexOf('://') + 3);
    const rest = url.slice(scheme.length);
    return `${scheme.startsWith('*') ? '*://' : scheme.toLowerCase()}${literal(rest)}`;
  }
  return url
    .split('*')
    .map(literal)
    .join('*')
    .replace(/\*{2,}/g, '*');
}

/** Text matched literally by a wildcard: its `\` and `*` escaped. */
function literal(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('*', '\\*');
}

/** `<field> wildcard "<pattern>"` with the pattern as a quoted Rules-language string. */
function wildcard(pattern: string): string {
  return `http.request.full_uri wildcard ${quoted(pattern)}`;
}

function quoted(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
