import {
  type ASTVisitor,
  type DocumentNode,
  GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
  print,
  TypeInfo,
  typeFromAST,
  type ValidationContext,
  type ValueNode,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { FILTER_INPUTS } from './schema.ts';

// The real API is loose where GraphQL is strict, and its documentation relies on it: queries declare
// `$zoneTag: string` where others write `String!`, pass a `FirewallEventsAdaptiveFilter_InputObject`
// to the groups dataset, and use variables they never declare (`zones(filter: {zoneTag: $tag})` in an
// anonymous query, the values in "variables"). Both are accepted here, and nothing looser.

/** Names that stand for one type: the standard scalars, the lower-case ones, the filter inputs. */
const FAMILIES: readonly (readonly string[])[] = [
  ['String', 'string', 'ID'],
  ['Int', 'uint16', 'uint32', 'uint64'],
  ['Float', 'float32', 'float64'],
  ['Boolean', 'bool'],
  FILTER_INPUTS,
];
const familyOf = new Map(FAMILIES.flatMap((names, i) => names.map((n) => [n, i] as const)));

/** Whether a variable of `given` type may stand where `wanted` is expected, families counted as one. */
function fits(given: GraphQLType, wanted: GraphQLType): boolean {
  if (isNonNullType(wanted)) return isNonNullType(given) && fits(given.ofType, wanted.ofType);
  if (isNonNullType(given)) return fits(given.ofType, wanted);
  if (isListType(wanted))
    return isListType(given) ? fits(given.ofType, wanted.ofType) : fits(given, wanted.ofType);
  if (isListType(given)) return false;
  const a = getNamedType(given).name;
  const b = getNamedType(wanted).name;
  return a === b || (familyOf.has(a) && familyOf.get(a) === familyOf.get(b));
}

/**
 * In place of GraphQL's VariablesInAllowedPositionRule: a variable fits a position whose type is of its
 * declared type's family (a nullable position takes a non-null variable; a variable with a default
 * value is not excused from non-null).
 */
export function variablesInLooseTypes(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition: {
      leave(operation) {
        const schema = context.getSchema();
        const declared = new Map(operation.variableDefinitions?.map((d) => [d.variable.name.value, d]));
        for (const { node, type } of context.getRecursiveVariableUsages(operation)) {
          const def = declared.get(node.name.value);
          if (!def || !type) continue; // an undeclared variable is NoUndefinedVariablesRule's to report
          const given = typeFromAST(schema, def.type);
          if (given && !fits(given, type)) {
            context.reportError(
              new GraphQLError(
                `Variable "$${node.name.value}" of type "${print(def.type)}" used in position expecting type "${String(type)}".`,
                { nodes: [def, node] },
              ),
            );
          }
        }
      },
    },
  };
}

/** A JSON value as a GraphQL literal of the expected type (enum names as enum values). */
function literal(value: unknown, type: GraphQLInputType | undefined): ValueNode {
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return { kind: Kind.NULL };
  if (Array.isArray(value)) {
    const item = inner && isListType(inner) ? inner.ofType : undefined;
    return { kind: Kind.LIST, values: value.map((v) => literal(v, item)) };
  }
  if (typeof value === 'object') {
    const fields = inner && isInputObjectType(inner) ? inner.getFields() : {};
    return {
      kind: Kind.OBJECT,
      fields: Object.entries(value).map(([name, v]) => ({
        kind: Kind.OBJECT_FIELD,
        name: { kind: Kind.NAME, value: name },
        value: literal(v, fields[name]?.type),
      })),
    };
  }
  if (typeof value === 'boolean') return { kind: Kind.BOOLEAN, value };
  if (typeof value === 'number') {
    return Number.isInteger(value)
      ? { kind: Kind.INT, value: String(value) }
      : { kind: Kind.FLOAT, value: String(value) };
  }
  const text = String(value);
  const named = inner && getNamedType(inner);
  if (named && isEnumType(named) && /^[_A-Za-z][_0-9A-Za-z]*$/.test(text))
    return { kind: Kind.ENUM, value: text };
  return { kind: Kind.STRING, value: text };
}

/**
 * A document whose one operation uses variables it does not declare, with those variables' values
 * written in as literals (when the request gives them); other documents unchanged. Undeclared variables
 * without a value stay, for GraphQL's own error.
 */
export function inlineUndeclaredVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
): DocumentNode {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1 || !variables) return document;
  const declared = new Set(operations[0]?.variableDefinitions?.map((d) => d.variable.name.value));
  const typeInfo = new TypeInfo(schema);
  return visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Variable(node) {
        const name = node.name.value;
        if (declared.has(name) || !Object.hasOwn(variables, name)) return undefined;
        return literal(variables[name], typeInfo.getInputType() ?? undefined);
      },
    }),
  );
}
