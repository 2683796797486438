import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

/** How deep a selection may nest (viewer → zones → dataset → dimensions → field is 5). */
export const MAX_DEPTH = 10;
/** How many dataset nodes (firewallEventsAdaptive…) one query may run. */
export const MAX_DATASET_NODES = 10;
/** How many fields a query may select in all, fragments expanded. */
export const MAX_FIELDS = 500;

/** How many list fields of the type system introspection may nest (types → fields → args is 3). */
export const MAX_INTROSPECTION_LISTS = 3;

const DATASETS = new Set(['firewallEventsAdaptive', 'firewallEventsAdaptiveGroups']);
// Lists of the type system: nesting them multiplies the answer (types → fields → type → fields → …).
const INTROSPECTION_LISTS = new Set([
  'types',
  'fields',
  'args',
  'inputFields',
  'interfaces',
  'possibleTypes',
  'enumValues',
  'directives',
]);

interface Walk {
  depth: number;
  datasets: number;
  fields: number;
  lists: number;
}

function walk(
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  level: number,
  lists: number,
  seen: Set<string>,
  into: Walk,
): void {
  into.depth = Math.max(into.depth, level);
  into.lists = Math.max(into.lists, lists);
  if (into.depth > MAX_DEPTH || into.fields > MAX_FIELDS || into.lists > MAX_INTROSPECTION_LISTS) return;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      into.fields++;
      if (DATASETS.has(name)) into.datasets++;
      // A type reference's ofType chain is bounded by the schema: it does not count as depth.
      const next = name === 'ofType' ? level : level + 1;
      if (sel.selectionSet)
        walk(sel.selectionSet, fragments, next, lists + (INTROSPECTION_LISTS.has(name) ? 1 : 0), seen, into);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      walk(sel.selectionSet, fragments, level, lists, seen, into);
    } else {
      const name = sel.name.value;
      const def = fragments.get(name);
      if (!def || seen.has(name)) continue; // cycles are reported by GraphQL's own rule
      seen.add(name);
      walk(def.selectionSet, fragments, level, lists, seen, into);
      seen.delete(name);
    }
  }
}

/**
 * A validation rule: each operation's depth, field count and dataset nodes are bounded, so one query's
 * cost is bounded before anything runs. Introspection counts like any query.
 */
export function costLimits(context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  }
  return {
    OperationDefinition(node) {
      const w: Walk = { depth: 0, datasets: 0, fields: 0, lists: 0 };
      walk(node.selectionSet, fragments, 1, 0, new Set(), w);
      if (w.lists > MAX_INTROSPECTION_LISTS) {
        context.reportError(
          new GraphQLError(
            `query is too costly: introspection nests more than ${MAX_INTROSPECTION_LISTS} lists (types, fields, args, ...)`,
            { nodes: node },
          ),
        );
      } else if (w.depth > MAX_DEPTH) {
        context.reportError(
          new GraphQLError(`query is too deep: more than ${MAX_DEPTH} levels of selections`, { nodes: node }),
        );
      } else if (w.fields > MAX_FIELDS) {
        context.reportError(
          new GraphQLError(`query is too costly: more than ${MAX_FIELDS} fields selected`, { nodes: node }),
        );
      } else if (w.datasets > MAX_DATASET_NODES) {
        context.reportError(
          new GraphQLError(
            `query is too costly: ${w.datasets} dataset nodes, but the limit is ${MAX_DATASET_NODES} per query`,
            { nodes: node },
          ),
        );
      }
    },
  };
}
