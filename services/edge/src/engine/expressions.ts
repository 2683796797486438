import { compile, type ExecutionContext, type Expr, type Filter, parse, type Scheme } from '@cairn/rules';
import { rulesScheme } from '../api/rulesets/expression.ts';
import { type MatchedDatum, snippet } from './verdict.ts';

/** A compiled Rules-language expression and the fields it reads (reported as matched data). */
export interface CompiledExpression {
  readonly source: string;
  readonly filter: Filter;
  readonly fields: readonly string[];
}

const MAX_CACHED = 10_000;
const cache = new Map<string, CompiledExpression>();

/** The scheme the engine executes against: the one the API checks expressions with. */
export const engineScheme = (): Scheme => rulesScheme();

function fieldsOf(node: Expr, into: Set<string>): Set<string> {
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    const o = n as { kind?: unknown; name?: unknown };
    if (o.kind === 'field' && typeof o.name === 'string') into.add(o.name);
    for (const [k, v] of Object.entries(n)) if (k !== 'span' && k !== 'type') walk(v);
  };
  walk(node);
  return into;
}

/**
 * Compiles an expression once per process (the same signature or rule text in many zones shares one
 * generated function). Expressions were checked when they were written; one that no longer parses
 * (a scheme change) throws, and the zone's plan reports it.
 */
export function compileExpression(source: string): CompiledExpression {
  const hit = cache.get(source);
  if (hit) return hit;
  const ast = parse(source, engineScheme());
  const compiled = { source, filter: compile(ast), fields: [...fieldsOf(ast.root, new Set())] };
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(show).join(', ');
  if (value instanceof Map) return [...value].map(([k, v]) => `${k}=${show(v)}`).join('; ');
  return String(value);
}

/** What the expression's fields held for this request, as snippets. */
export function matchedFields(expr: CompiledExpression, ctx: ExecutionContext): MatchedDatum[] {
  const out: MatchedDatum[] = [];
  for (const name of expr.fields) {
    let value: unknown;
    try {
      value = ctx.get(name);
    } catch {
      continue;
    }
    const text = show(value);
    if (text !== '') out.push({ name, value: snippet(text) });
    if (out.length >= 4) break;
  }
  return out;
}
