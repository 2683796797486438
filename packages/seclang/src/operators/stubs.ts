// geoLookup and rbl: need a GeoIP database or DNS, neither of which the engine consults; they
// never match (as ModSecurity without a database). unconditionalMatch / noMatch: always / never.
// Example: SecRule REMOTE_ADDR "@geoLookup" "id:1,chain"
import type { OperatorDef } from '../types.ts';

export const geoLookup: OperatorDef = { name: 'geoLookup', compile: () => () => false };
export const rbl: OperatorDef = { name: 'rbl', compile: () => () => false };
export const unconditionalMatch: OperatorDef = { name: 'unconditionalMatch', compile: () => () => true };
export const noMatch: OperatorDef = { name: 'noMatch', compile: () => () => false };
