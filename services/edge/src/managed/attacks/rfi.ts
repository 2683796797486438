import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

/** PHP stream wrappers and data URLs that an include() runs. */
const WRAPPER =
  /\b(?:php|phar|zip|expect|glob|ogg|rar|ssh2(?:\.[a-z]+)?|compress\.(?:zlib|bzip2)):\/\/|\bdata:[^,\s]{0,64}(?:;base64)?,/i;

/**
 * A remote URL as the whole value, shaped for an include: on an IP address, ending in `?` or `#` (the
 * rest of the include path cut off), or naming a script or text file (`e.php`, `shell.txt`).
 */
const REMOTE_INCLUDE =
  /^\s{0,8}(?:https?|ftps?|smb|ftp):\/\/(?:[^/?#\s]{0,128}@)?(?:\d{1,3}(?:\.\d{1,3}){3}(?:[:/?#]|$)|[^\s]{1,2048}?(?:[?#]$|\.(?:php\d?|phtml|inc|txt|pl|cgi|sh|asp|aspx|jsp)$))/i;

/** Remote file inclusion: a wrapper or a remote script URL given where a file name is expected. */
export const remoteFileInclusion: AttackMatcher = (value) =>
  firstMatch(value, (reading) => (WRAPPER.exec(reading) ?? REMOTE_INCLUDE.exec(reading))?.[0]);
