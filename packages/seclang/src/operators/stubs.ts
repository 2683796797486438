// rbl: needs DNS, which the engine does not consult; it never matches (as ModSecurity without a
// resolver). unconditionalMatch / noMatch: always / never.
// Example: SecRule REMOTE_ADDR "@rbl sbl-xbl.spamhaus.org" "id:1,deny"
import type { OperatorDef } from '../types.ts';

export const rbl: OperatorDef = { name: 'rbl', compile: () => () => false };
export const unconditionalMatch: OperatorDef = { name: 'unconditionalMatch', compile: () => () => true };
export const noMatch: OperatorDef = { name: 'noMatch', compile: () => () => false };
