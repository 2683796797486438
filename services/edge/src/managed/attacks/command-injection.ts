import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

// Shell commands after a separator (`;`, `|`, `&`, a newline, `$(`). Commands that are also English words
// (`id`, `env`, `set`…) count only right after the separator and alone, as in `;id`, `|env`, `&set&`;
// commands that take arguments (`cat`, `sleep`, `ping`…) only with an argument that looks like one
// (a flag, a path, a number, a variable), so "Tom & Jerry; cat lovers" stays plain text.
const SEPARATOR = String.raw`(?:[;|&\n\r]|\$\()`;
const SPACE = String.raw`(?:[ \t]|\$\{?IFS\}?)`;
const ALONE =
  '(?:id|env|set|dir|ver|pwd|whoami|uname|hostname|ifconfig|ipconfig|netstat|systeminfo|tasklist|phpinfo|printenv)';
const WITH_ARGUMENT =
  '(?:cat|tac|ls|rm|cp|mv|echo|printf|sleep|timeout|ping|wget|curl|nc|ncat|netcat|bash|sh|zsh|ksh|dash|python[23]?|perl|ruby|php|node|powershell|pwsh|cmd(?:.exe)?|chmod|chown|touch|kill|head|tail|more|less|type|nslookup|dig|whoami|uname|ifconfig|ipconfig|net|certutil|bitsadmin|tftp|telnet|ssh|nmap|base64|xxd|sudo|su|nohup|eval|exec|find|grep|awk|sed|uname|id)';
const ARGUMENT = String.raw`(?:-{1,2}[a-z]|[/\\~$'"\d]|\.{1,2}[/\\]|https?:|[a-z]:\\)`;

const SHELL = new RegExp(
  [
    `${SEPARATOR}${ALONE}(?=$|[;|&\\n\\r)\`'"]|${SPACE}{1,8}$)`,
    `${SEPARATOR}${SPACE}{0,8}${WITH_ARGUMENT}${SPACE}{1,8}${ARGUMENT}`,
    // Command substitution: `$(id)`, and a backtick right after other text (`a\`id\``), unlike Markdown's inline code.
    `\\$\\(${SPACE}{0,8}(?:${ALONE}|${WITH_ARGUMENT})\\b`,
    `(?<=\\S)\`${SPACE}{0,8}(?:${ALONE}|${WITH_ARGUMENT})(?:${SPACE}[^\`\\n]{0,64})?\``,
  ].join('|'),
);

/** PHP code spliced after a quote or a semicolon: `';exit(md5('x'));//`, `".system('id');#`. */
const PHP_CODE =
  /[;'"]\s{0,8}\.?\s{0,8}(?:exit|die|eval|assert|system|passthru|shell_exec|exec|popen|proc_open|pcntl_exec|phpinfo|print_r|var_dump|md5|base64_decode|file_get_contents|file_put_contents|include|require)\s{0,8}\(/i;

/** PHP's preg_replace `/e` modifier cut off by a NUL byte (`/e\0`): the replacement is run as code. */
const PREG_EVAL = /\/[a-z]{0,4}e(?:\0|%00)/i;

/** Command injection: a shell command after a separator, command substitution, or spliced PHP code. */
export const commandInjection: AttackMatcher = (value) =>
  PREG_EVAL.exec(value)?.[0] ??
  firstMatch(value, (reading) => (SHELL.exec(reading) ?? PHP_CODE.exec(reading))?.[0]);
