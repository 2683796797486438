import { detectXSS } from '@cairn/seclang';
import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

/** A `javascript:` or `vbscript:` URL as a whole value (an href or redirect target), spaces and controls allowed inside. */
const SCRIPT_URL = /^[\s\0-\x1f]{0,16}(?:java|vb)[\s\0-\x1f]{0,8}script[\s\0-\x1f]{0,8}:/i;

/** A script start tag anywhere, however the text around it is broken up (`<scr<script>ipt>`). */
const SCRIPT_TAG = /<script[\s/>]/i;

/** Cross-site scripting: the seclang detector over the value read as HTML, a script tag, or a script URL. */
export const xss: AttackMatcher = (value) =>
  firstMatch(value, (reading) => {
    if (detectXSS(reading) || SCRIPT_TAG.test(reading)) return 'HTML that runs script';
    return SCRIPT_URL.test(reading) ? 'script URL' : undefined;
  });
