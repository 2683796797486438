import { invalidValue } from '../errors.ts';
import { newHexId } from '../ids.ts';
import { pointerTo } from '../schema.ts';
import { canonical, type RuleContent, type StoredRule } from './model.ts';

export interface IncomingRule {
  /** The id the client sent (an existing rule), if any. */
  id: string | undefined;
  content: RuleContent;
  pointer: string;
}

/**
 * The new rule list of a ruleset write. A rule keeps its id when the client sends it (or, without an id,
 * the ref of an existing rule); its version and last_updated change only when its content does, so
 * reordering changes nothing. New rules get a fresh id, version 1, and ref = id unless given.
 */
export function mergeRules(
  existing: readonly StoredRule[],
  incoming: readonly IncomingRule[],
  now: string,
): StoredRule[] {
  const used = new Set<string>();
  const refs = new Set<string>();
  return incoming.map(({ id, content, pointer }) => {
    let match: StoredRule | undefined;
    if (id !== undefined) {
      match = existing.find((r) => r.id === id);
      if (!match)
        throw invalidValue(
          pointerTo(pointer, 'id'),
          id,
          'this ruleset has no rule with this id (send "" or no id for a new rule)',
        );
    } else if (content.ref !== '') {
      match = existing.find((r) => r.ref === content.ref && !used.has(r.id));
    }
    if (match && used.has(match.id))
      throw invalidValue(pointerTo(pointer, 'id'), match.id, 'this rule is listed twice');
    const ruleId = match?.id ?? newHexId();
    used.add(ruleId);
    const ref = content.ref !== '' ? content.ref : (match?.ref ?? ruleId);
    if (refs.has(ref))
      throw invalidValue(pointerTo(pointer, 'ref'), ref, 'another rule of this ruleset has this ref');
    refs.add(ref);
    const full: RuleContent = { ...content, ref };
    if (match && sameContent(match, full)) return { ...match, ...full };
    return {
      id: ruleId,
      version: match ? match.version + 1 : 1,
      last_updated: now,
      ...full,
    };
  });
}

export function contentOf(rule: StoredRule): RuleContent {
  const { id: _id, version: _version, last_updated: _lastUpdated, ...content } = rule;
  return content;
}

export const sameContent = (a: StoredRule, b: RuleContent) => canonical(contentOf(a)) === canonical(b);
