// detectXSS: our own cross-site-scripting detector.
// Example: SecRule ARGS "@detectXSS" "id:941100,t:none,t:utf8toUnicode,t:urlDecodeUni"
import { detectXSS as detect } from '../detectors/xss.ts';
import type { OperatorDef } from '../types.ts';

export const detectXSS: OperatorDef = {
  name: 'detectXSS',
  compile: () => (_tx, input) => detect(input),
};
