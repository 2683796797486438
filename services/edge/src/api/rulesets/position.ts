import { invalidValue } from '../errors.ts';
import { pointerTo } from '../schema.ts';
import type { Position } from './rule-input.ts';

/**
 * Where a rule goes in `others` (the ruleset's rules without it): `{before: id|""}` ("" = first),
 * `{after: id|""}` ("" = last), `{index: n}` (1 = first), nothing = last.
 */
export function resolvePosition(
  position: Position | undefined,
  others: readonly { id: string }[],
  pointer: string,
  self?: string,
): number {
  if (!position) return others.length;
  const keys = (Object.keys(position) as (keyof Position)[]).filter((k) => position[k] !== undefined);
  if (keys.length !== 1) {
    throw invalidValue(pointer, position, 'it must give exactly one of before, after or index');
  }
  const key = keys[0]!;
  if (key === 'index') {
    const index = position.index!;
    if (index > others.length + 1) {
      throw invalidValue(
        pointerTo(pointer, 'index'),
        index,
        `the ruleset has ${others.length} other rules, so index must be from 1 to ${others.length + 1}`,
      );
    }
    return index - 1;
  }
  const id = position[key]!;
  if (id === '') return key === 'before' ? 0 : others.length;
  if (id === self)
    throw invalidValue(pointerTo(pointer, key), id, 'a rule cannot be placed relative to itself');
  const at = others.findIndex((r) => r.id === id);
  if (at < 0) throw invalidValue(pointerTo(pointer, key), id, 'this ruleset has no rule with this id');
  return key === 'before' ? at : at + 1;
}
