// Small checks shared by the function definitions.

import { reasons } from '../errors.ts';
import { sameType, type Type, typeName } from '../types.ts';
import type { ArgFail, ArgInfo } from './definition.ts';

export function arg(args: readonly ArgInfo[], i: number): ArgInfo {
  const a = args[i];
  if (!a) throw new RangeError(`argument #${i} is missing`);
  return a;
}

export function expectType(args: readonly ArgInfo[], i: number, type: Type, fail: ArgFail): void {
  const a = arg(args, i);
  if (!sameType(a.type, type)) fail(i, reasons.argumentType(i, typeName(type), typeName(a.type)));
}

/** The argument must be computed (a field, index or function result), not a written literal. */
export function expectField(args: readonly ArgInfo[], i: number, fail: ArgFail): void {
  if (arg(args, i).kind === 'literal') fail(i, reasons.argumentKind(i, 'Field', 'Literal'));
}

/** The argument must be a written literal, and returns its value. */
export function expectLiteral(args: readonly ArgInfo[], i: number, fail: ArgFail): ArgInfo['literal'] {
  const a = arg(args, i);
  if (a.kind !== 'literal') fail(i, reasons.argumentKind(i, 'Literal', 'Field'));
  return a.literal;
}

export function expectIntLiteral(
  args: readonly ArgInfo[],
  i: number,
  min: number,
  max: number,
  fail: ArgFail,
): number {
  const v = expectLiteral(args, i, fail);
  if (typeof v !== 'number' || v < min || v > max) {
    fail(i, reasons.argumentValue(i, `expected an integer between ${min} and ${max}`));
  }
  return v;
}
