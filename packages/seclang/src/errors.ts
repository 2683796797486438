// Load-time errors: one class, a location (file:line) and the rule id when known, so a
// failing CRS file reads `REQUEST-942-APPLICATION-ATTACK-SQLI.conf:1023 rule 942100: unknown operator @fooBar`.

import { basename } from 'node:path';

export class SecLangError extends Error {
  readonly file: string;
  readonly line: number;
  readonly ruleId: number | undefined;
  readonly reason: string;

  constructor(reason: string, file: string, line: number, ruleId?: number) {
    const where = `${basename(file)}:${line}${ruleId ? ` rule ${ruleId}` : ''}`;
    super(`${where}: ${reason}`);
    this.name = 'SecLangError';
    this.file = file;
    this.line = line;
    this.ruleId = ruleId;
    this.reason = reason;
  }
}

/** A problem found while compiling one part of a rule; the loader adds file, line and id. */
export class RuleCompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuleCompileError';
  }
}
