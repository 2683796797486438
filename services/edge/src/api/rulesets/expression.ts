import { type Expr, httpRequestScheme, type Limits, parse, RulesParseError, type Scheme } from '@cairn/rules';
import { invalidValue, notEntitled } from '../errors.ts';
import { atLeast, type PlanName, planLabel } from '../zones/plans.ts';

let scheme: Scheme | undefined;

/** The scheme every rule expression is checked against: the standard HTTP request fields. */
export function rulesScheme(): Scheme {
  scheme ??= httpRequestScheme();
  return scheme;
}

function usesRegex(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(usesRegex);
  const n = node as { kind?: unknown; op?: unknown };
  if (n.kind === 'compare' && n.op === 'matches') return true;
  return Object.entries(node).some(([k, v]) => k !== 'type' && k !== 'span' && usesRegex(v));
}

/**
 * Parses and type-checks a rule or filter expression. A syntax or type error is Cloudflare's wrapper around
 * wirefilter's text: `'<expr>' is not a valid value for expression because could not parse filter
 * expression: Filter parsing error (1:17): …`. `matches` (regular expressions) needs Business or above.
 */
export function checkExpression(
  expression: string,
  pointer: string,
  plan: PlanName,
  limits?: Partial<Limits>,
): Expr {
  let root: Expr;
  try {
    root = parse(expression, rulesScheme(), limits).root;
  } catch (error) {
    if (error instanceof RulesParseError) {
      throw invalidValue(
        pointer,
        expression,
        `could not parse filter expression: ${error.message.trimEnd()}`,
      );
    }
    throw error;
  }
  if (!atLeast(plan, 'business') && usesRegex(root)) {
    throw notEntitled(
      `not entitled to use the matches operator: regular expressions need the Business plan or above, and this zone is on ${planLabel(plan)}`,
      pointer,
    );
  }
  return root;
}
