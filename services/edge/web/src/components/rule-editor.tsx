import { useEffect, useState } from 'preact/hooks';
import { api, type ManagedRule, type Rule } from '../api.ts';
import {
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
  owaspActionOf,
  paranoiaLevelOf,
  RULE_ACTIONS,
  ruleSummary,
  SCORE_THRESHOLDS,
  scoreThresholdOf,
  withAnomalySetting,
  withoutRuleOverride,
  withParanoiaLevel,
  withRuleOverride,
} from '../config.ts';

/** The rules of a managed ruleset, loaded once per ruleset for the override picker. */
const managedRules = new Map<string, Promise<ManagedRule[]>>();
function useManagedRules(accountId: string, rulesetId: string | undefined): ManagedRule[] {
  const [rules, setRules] = useState<ManagedRule[]>([]);
  useEffect(() => {
    if (!rulesetId) return;
    let loading = managedRules.get(rulesetId);
    if (!loading) {
      loading = api.managedRuleset(accountId, rulesetId).then(
        (r) => r.result.rules,
        () => [],
      );
      managedRules.set(rulesetId, loading);
    }
    void loading.then(setRules);
  }, [accountId, rulesetId]);
  return rules;
}

/** One rule of the entry point, with the settings the dashboard can change. */
export function RuleEditor(props: {
  index: number;
  rule: Rule;
  accountId: string;
  onChange: (rule: Rule) => void;
}) {
  const { rule, index, onChange } = props;
  const rulesetId = rule.action === 'execute' ? rule.action_parameters?.id : undefined;
  const catalogue = useManagedRules(props.accountId, rulesetId);
  const titleId = `rule-${index}-title`;
  return (
    <article class="rule card" aria-labelledby={titleId} data-testid={`rule-${index}`}>
      <header>
        <h3 id={titleId}>
          {index + 1}. {ruleSummary(rule)}
        </h3>
        <label class="inline">
          <input
            type="checkbox"
            checked={rule.enabled !== false}
            onChange={(e) => onChange({ ...rule, enabled: (e.currentTarget as HTMLInputElement).checked })}
          />
          Enabled
        </label>
      </header>
      {rule.description && <p class="muted">{rule.description}</p>}
      <p>
        When: <code>{rule.expression}</code>
      </p>
      {rulesetId === OWASP_RULESET_ID && <OwaspSettings rule={rule} onChange={onChange} index={index} />}
      {rulesetId && <Overrides rule={rule} catalogue={catalogue} onChange={onChange} index={index} />}
    </article>
  );
}

function OwaspSettings(props: { rule: Rule; index: number; onChange: (rule: Rule) => void }) {
  const { rule, onChange, index } = props;
  return (
    <fieldset class="settings">
      <legend>OWASP Core Ruleset</legend>
      <label>
        Paranoia level
        <select
          name={`paranoia-${index}`}
          value={String(paranoiaLevelOf(rule))}
          onChange={(e) =>
            onChange(withParanoiaLevel(rule, Number((e.currentTarget as HTMLSelectElement).value)))
          }
        >
          {[1, 2, 3, 4].map((n) => (
            <option key={n} value={String(n)}>
              PL{n}
            </option>
          ))}
        </select>
      </label>
      <label>
        Score threshold
        <select
          name={`threshold-${index}`}
          value={String(scoreThresholdOf(rule))}
          onChange={(e) =>
            onChange(
              withAnomalySetting(rule, {
                score_threshold: Number((e.currentTarget as HTMLSelectElement).value),
              }),
            )
          }
        >
          {SCORE_THRESHOLDS.map((t) => (
            <option key={t.value} value={String(t.value)}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        OWASP action
        <select
          name={`owasp-action-${index}`}
          value={owaspActionOf(rule)}
          onChange={(e) =>
            onChange(withAnomalySetting(rule, { action: (e.currentTarget as HTMLSelectElement).value }))
          }
        >
          {RULE_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}

function Overrides(props: {
  rule: Rule;
  index: number;
  catalogue: ManagedRule[];
  onChange: (rule: Rule) => void;
}) {
  const { rule, catalogue, onChange, index } = props;
  const overrides = (rule.action_parameters?.overrides?.rules ?? []).filter(
    (o) => o.id !== OWASP_ANOMALY_RULE_ID || o.enabled !== undefined,
  );
  const [ruleId, setRuleId] = useState('');
  const [enabled, setEnabled] = useState('');
  const [action, setAction] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const describe = (id: string) => catalogue.find((r) => r.id === id)?.description ?? '';
  const listId = `managed-rules-${index}`;
  // Security Events links a rule here as #rule-<id>: its override row, or the form ready to add one.
  const linked = decodeURIComponent(window.location.hash.replace(/^#rule-/, ''));
  const linkedHere = linked !== '' && catalogue.some((r) => r.id === linked);
  const linkedRow = linkedHere && overrides.some((o) => o.id === linked);
  useEffect(() => {
    if (!linkedHere) return;
    if (!linkedRow) setRuleId(linked);
    document.getElementById(`rule-${linked}`)?.scrollIntoView({ block: 'center' });
  }, [linkedHere]);

  function add(event: SubmitEvent) {
    event.preventDefault();
    const id = ruleId.trim();
    if (catalogue.length > 0 && !catalogue.some((r) => r.id === id)) {
      setProblem(`No rule ${id} in this ruleset; pick one from the list`);
      return;
    }
    if (enabled === '' && action === '') {
      setProblem('Choose what the override changes: enabled, action or both');
      return;
    }
    setProblem(undefined);
    const existing = rule.action_parameters?.overrides?.rules?.find((o) => o.id === id);
    onChange(
      withRuleOverride(rule, {
        ...(existing ?? {}),
        id,
        ...(enabled === '' ? {} : { enabled: enabled === 'on' }),
        ...(action === '' ? {} : { action }),
      }),
    );
    setRuleId('');
    setEnabled('');
    setAction('');
  }

  return (
    <div class="overrides">
      <h4>Rule overrides</h4>
      {overrides.length === 0 ? (
        <p class="muted">None: every rule runs as the ruleset ships it.</p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Enabled</th>
              <th scope="col">Action</th>
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {overrides.map((o) => (
              <tr key={o.id} id={`rule-${o.id}`} class={o.id === linked ? 'selected' : undefined}>
                <td>
                  <code>{o.id}</code> <span class="muted">{describe(o.id)}</span>
                </td>
                <td>{o.enabled === undefined ? '—' : o.enabled ? 'on' : 'off'}</td>
                <td>{o.action ?? '—'}</td>
                <td>
                  <button
                    type="button"
                    class="link"
                    onClick={() => onChange(withoutRuleOverride(rule, o.id))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form class="add-override" id={linkedHere && !linkedRow ? `rule-${linked}` : undefined} onSubmit={add}>
        <label>
          Rule
          <input
            name={`override-rule-${index}`}
            list={listId}
            value={ruleId}
            required
            placeholder="rule id"
            onInput={(e) => setRuleId((e.currentTarget as HTMLInputElement).value)}
          />
          <datalist id={listId}>
            {catalogue.map((r) => (
              <option key={r.id} value={r.id}>
                {r.description}
              </option>
            ))}
          </datalist>
        </label>
        <label>
          Enabled
          <select
            name={`override-enabled-${index}`}
            value={enabled}
            onChange={(e) => setEnabled((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">unchanged</option>
            <option value="on">on</option>
            <option value="off">off</option>
          </select>
        </label>
        <label>
          Action
          <select
            name={`override-action-${index}`}
            value={action}
            onChange={(e) => setAction((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">unchanged</option>
            {RULE_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Add override</button>
        {problem && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </div>
  );
}
