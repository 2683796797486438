// Action registry: name → definition; duplicates refused, lookup case-insensitive.

import type { ActionDef } from '../types.ts';
import { capture } from './capture.ts';
import { ctl } from './ctl.ts';
import { allow, block, deny, drop, pass, redirect, status } from './disruptive.ts';
import { expirevar } from './expirevar.ts';
import { chain, skip, skipAfter } from './flow.ts';
import { initcol } from './initcol.ts';
import { auditlog, log, noauditlog, nolog, sanitiseArg, sanitiseMatched } from './logging.ts';
import { accuracy, id, logdata, maturity, msg, rev, severity, tag, ver } from './metadata.ts';
import { multiMatch } from './multi-match.ts';
import { phase } from './phase.ts';
import { setvar } from './setvar.ts';
import { t } from './t.ts';

const registry = new Map<string, ActionDef>();

export function registerAction(def: ActionDef): void {
  const key = def.name.toLowerCase();
  if (registry.has(key)) throw new Error(`action ${def.name} is already registered`);
  registry.set(key, def);
}

export function getAction(name: string): ActionDef | undefined {
  return registry.get(name.toLowerCase());
}

for (const def of [
  accuracy,
  allow,
  auditlog,
  block,
  capture,
  chain,
  ctl,
  deny,
  drop,
  expirevar,
  id,
  initcol,
  log,
  logdata,
  maturity,
  msg,
  multiMatch,
  noauditlog,
  nolog,
  pass,
  phase,
  redirect,
  rev,
  sanitiseArg,
  sanitiseMatched,
  setvar,
  severity,
  skip,
  skipAfter,
  status,
  t,
  tag,
  ver,
]) {
  registerAction(def);
}
