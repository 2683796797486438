// none: no change; in a rule's `t:` list it also drops every transformation listed before it.
// Example: SecRule ARGS "@rx foo" "id:1,t:none,t:lowercase"
import type { TransformationDef } from '../types.ts';

export const none: TransformationDef = {
  name: 'none',
  transform: (input) => input,
};
