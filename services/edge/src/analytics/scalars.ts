import { GraphQLError, type GraphQLScalarType, type GraphQLSchema, Kind, type ValueNode } from 'graphql';

/**
 * The real schema's scalars, lower-case as GraphQL Analytics names them (`string`, `uint64`, …), each
 * checked like its standard counterpart. `Time` and `Date` take any string here: the filter names a bad
 * time itself (`filter.datetime_geq: … is not an RFC 3339 time`).
 */
export const SCALARS_SDL = `
"Text (the real schema's lower-case string)"
scalar string
"An RFC 3339 time, e.g. 2026-01-01T00:00:00Z"
scalar Time
"A UTC day, e.g. 2026-01-01"
scalar Date
"true or false"
scalar bool
"An unsigned 16-bit integer"
scalar uint16
"An unsigned 32-bit integer"
scalar uint32
"An unsigned 64-bit integer (counts)"
scalar uint64
"A 32-bit float"
scalar float32
"A 64-bit float"
scalar float64
`;

interface Check {
  what: string;
  value: (v: unknown) => boolean;
  literal: (node: ValueNode) => unknown;
}

const isText = (v: unknown) => typeof v === 'string';
const textLiteral = (node: ValueNode) => (node.kind === Kind.STRING ? node.value : undefined);
const unsigned = (max: number) => (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
const intLiteral = (node: ValueNode) => (node.kind === Kind.INT ? Number(node.value) : undefined);
const floatLiteral = (node: ValueNode) =>
  node.kind === Kind.INT || node.kind === Kind.FLOAT ? Number(node.value) : undefined;

const CHECKS: Record<string, Check> = {
  string: { what: 'a string', value: isText, literal: textLiteral },
  Time: { what: 'an RFC 3339 time string', value: isText, literal: textLiteral },
  Date: { what: 'a date string (YYYY-MM-DD)', value: isText, literal: textLiteral },
  bool: {
    what: 'true or false',
    value: (v) => typeof v === 'boolean',
    literal: (n) => (n.kind === Kind.BOOLEAN ? n.value : undefined),
  },
  uint16: { what: 'an integer from 0 to 65535', value: unsigned(65_535), literal: intLiteral },
  uint32: { what: 'an integer from 0 to 4294967295', value: unsigned(4_294_967_295), literal: intLiteral },
  uint64: { what: 'a non-negative integer', value: unsigned(Number.MAX_SAFE_INTEGER), literal: intLiteral },
  float32: {
    what: 'a number',
    value: (v) => typeof v === 'number' && Number.isFinite(v),
    literal: floatLiteral,
  },
  float64: {
    what: 'a number',
    value: (v) => typeof v === 'number' && Number.isFinite(v),
    literal: floatLiteral,
  },
};

/** Gives the schema's lower-case scalars their checks (buildSchema makes them accept anything). */
export function checkScalars(schema: GraphQLSchema): void {
  for (const [name, check] of Object.entries(CHECKS)) {
    const type = schema.getType(name) as GraphQLScalarType | undefined;
    if (!type) continue;
    const parse = (v: unknown) => {
      if (!check.value(v)) throw new GraphQLError(`${name} must be ${check.what}, not ${JSON.stringify(v)}`);
      return v;
    };
    // The type objects are the schema's own; setting their functions once, at build time, is how a
    // schema built from SDL gets scalar behaviour.
    Object.assign(type, {
      serialize: (v: unknown) => (v instanceof Date ? v.toISOString() : v),
      parseValue: parse,
      parseLiteral: (node: ValueNode) => parse(check.literal(node)),
    });
  }
}
