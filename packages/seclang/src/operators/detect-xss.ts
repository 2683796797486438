// detectXSS: our own cross-site-scripting detector.
// Example: SecRule ARGS "@detectXSS" "id:941100,t:none,t:utf8toUnicode,t:urlDecodeUni"
import { detectXSS as detect } from '../detectors/xss.ts';
import { anyOfPrefilter } from '../regex/prefilter.ts';
import type { OperatorDef, OperatorFn } from '../types.ts';

export const detectXSS: OperatorDef = {
  name: 'detectXSS',
  compile: () => {
    const fn: OperatorFn = (_tx, input) => detect(input);
    // the detector reads nothing without a '<' (text) or a '=' (attributes)
    fn.prefilter = anyOfPrefilter('<=');
    fn.pure = true;
    return fn;
  },
};
