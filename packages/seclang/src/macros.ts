// Macro expansion: `%{tx.anomaly_score}`, `%{MATCHED_VAR}`, `%{rule.id}`, `%{request_headers.host}`.
// Compiled once into a function; text without `%{` becomes a constant.

import type { Macro, Rule, Transaction } from './types.ts';

const MACRO_RE = /%\{([^}]+)\}/g;

export function hasMacro(text: string): boolean {
  return text.includes('%{');
}

function ruleProperty(rule: Rule | undefined, key: string): string {
  if (!rule) return '';
  switch (key) {
    case 'id':
      return String(rule.id || rule.parentId);
    case 'msg':
      return rule.msgText ?? '';
    case 'severity':
      return rule.severity ?? '';
    case 'ver':
      return rule.ver ?? '';
    default:
      return '';
  }
}

type Part = string | { name: string; key: string | undefined };

export function compileMacro(text: string): Macro {
  if (!hasMacro(text)) return () => text;
  const parts: Part[] = [];
  let last = 0;
  for (const m of text.matchAll(MACRO_RE)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    const ref = m[1]!;
    const dot = ref.search(/[.:]/);
    parts.push(
      dot < 0
        ? { name: ref.toUpperCase(), key: undefined }
        : { name: ref.slice(0, dot).toUpperCase(), key: ref.slice(dot + 1).toLowerCase() },
    );
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (tx: Transaction, rule: Rule | undefined) => {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') out += part;
      else if (part.name === 'RULE') out += ruleProperty(rule, part.key ?? '');
      else out += tx.macroValue(part.name, part.key);
    }
    return out;
  };
}
