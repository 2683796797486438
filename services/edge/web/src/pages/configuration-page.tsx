import { useEffect, useState } from 'preact/hooks';
import {
  ApiError,
  type ApiMessage,
  api,
  type Check,
  type Configuration,
  type Session,
  type Status,
  type Zone,
} from '../api.ts';
import { Link } from '../components/link.tsx';
import { RuleEditor } from '../components/rule-editor.tsx';
import { ErrorText, Loading } from '../components/state.tsx';
import { ZoneHeader } from '../components/zone-tabs.tsx';
import { bodyOf, replaceRule } from '../config.ts';
import { navigate } from '../router.ts';

/** The migration's "not migrated" message code (OWASP group and rule overrides). */
const NOT_MIGRATED = 10710;
/** The API's warning that the deployed OWASP ruleset can never block (log only, threshold out of reach). */
const NEVER_BLOCKS = 20500;

interface Loaded {
  zone: Zone;
  status: Status;
  check: Check | undefined;
  config: Configuration;
  messages: ApiMessage[];
}

async function load(id: string): Promise<Loaded> {
  const [zone, status] = await Promise.all([api.zone(id), api.status(id)]);
  const state = status.result.migration_state;
  if (state === 'start') {
    const [check, config] = await Promise.all([api.check(id), api.config(id)]);
    return {
      zone: zone.result,
      status: status.result,
      check: check.result,
      config: config.result,
      messages: config.messages,
    };
  }
  let config: Configuration = { name: 'default', rules: [] };
  let messages: ApiMessage[] = [];
  try {
    const entrypoint = await api.entrypoint(id);
    config = entrypoint.result;
    messages = entrypoint.messages;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  return { zone: zone.result, status: status.result, check: undefined, config, messages };
}

type Phase = 'editing' | 'deploying' | 'complete' | 'saved';

export function ConfigurationPage(props: { id: string; session: Session }) {
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [config, setConfig] = useState<Configuration | undefined>();
  const [phase, setPhase] = useState<Phase>('editing');
  const [error, setError] = useState<string | undefined>();
  const [problems, setProblems] = useState<ApiMessage[]>([]);
  /** The never-blocks warnings of the last answer (the load's, then each save's). */
  const [warnings, setWarnings] = useState<ApiMessage[] | undefined>();

  useEffect(() => {
    load(props.id).then(
      (l) => {
        setLoaded(l);
        setConfig(l.config);
      },
      (e: Error) => setError(e.message),
    );
  }, [props.id]);

  if (!loaded || !config) return error ? <ErrorText error={error} /> : <Loading />;
  const { zone, status } = loaded;
  const state = status.migration_state;
  const reviewing = state === 'start';
  const enterprise = zone.plan.legacy_id === 'enterprise';
  const notMigrated = loaded.messages.filter((m) => m.code === NOT_MIGRATED);
  const notes = loaded.messages.filter((m) => m.code !== NOT_MIGRATED && m.code !== NEVER_BLOCKS);
  const neverBlocks = warnings ?? loaded.messages.filter((m) => m.code === NEVER_BLOCKS);

  async function run(action: () => Promise<void>) {
    setError(undefined);
    setProblems([]);
    try {
      await action();
    } catch (e) {
      setPhase('editing');
      if (e instanceof ApiError) setProblems(e.errors);
      setError((e as Error).message);
    }
  }

  const deploy = () =>
    run(async () => {
      if (enterprise && state === 'start') {
        await api.upgrade(zone.id, 'validation', bodyOf(config));
        navigate({ name: 'zone', id: zone.id });
        return;
      }
      setPhase('deploying');
      await api.upgrade(zone.id, 'pending', bodyOf(config));
      // The switch may take a moment on the real service; wait until the status says so.
      for (let i = 0; i < 30; i++) {
        if ((await api.status(zone.id)).result.migration_state === 'complete') break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      setPhase('complete');
    });

  const save = () =>
    run(async () => {
      const written =
        state === 'validation'
          ? await api.upgrade(zone.id, 'validation', bodyOf(config))
          : await api.saveEntrypoint(zone.id, bodyOf(config));
      setConfig(written.result);
      setWarnings(written.messages.filter((m) => m.code === NEVER_BLOCKS));
      setPhase('saved');
    });

  const edit = (next: Configuration) => {
    setConfig(next);
    if (phase === 'saved') setPhase('editing');
  };

  return (
    <>
      <ZoneHeader zone={zone} current="configuration" />
      <h2>{reviewing ? 'Review configuration' : 'Managed rules configuration'}</h2>
      {reviewing && (
        <p>
          The equivalent of this zone's previous WAF configuration in the new WAF Managed Rules. Adjust it if
          you like, then deploy.
        </p>
      )}
      {state === 'validation' && (
        <p>Validation mode: changes are saved and run at once, beside the previous version.</p>
      )}
      {phase === 'deploying' && (
        <section class="banner" role="status" data-testid="upgrade-progress">
          Upgrade in progress… The previous version is turned off once the new configuration is saved and
          enabled.
        </section>
      )}
      {phase === 'complete' && (
        <section class="banner success" role="status" data-testid="upgrade-complete">
          Upgrade complete: {zone.name} uses the new WAF Managed Rules and the previous version is turned off.{' '}
          <Link to={{ name: 'zone', id: zone.id }}>Back to the zone</Link>
        </section>
      )}
      {phase === 'saved' && (
        <section class="banner success" role="status" data-testid="configuration-saved">
          Configuration saved{state === 'validation' ? ': both versions keep running' : ''}.
        </section>
      )}
      <ErrorText error={error} />
      {problems.some((p) => p.source?.pointer) && (
        <ul class="error">
          {problems.map((p) => (
            <li key={`${p.code}${p.source?.pointer}`}>
              {p.source?.pointer ? <code>{p.source.pointer}</code> : null} {p.message}
            </li>
          ))}
        </ul>
      )}
      {neverBlocks.length > 0 && (
        <section class="card warning" role="alert" data-testid="waf-never-blocks">
          <h3>This configuration never blocks</h3>
          <ul>
            {neverBlocks.map((m) => (
              <li key={m.message}>{m.message}</li>
            ))}
          </ul>
        </section>
      )}
      {notMigrated.length > 0 && (
        <section class="card warning" data-testid="not-migrated">
          <h3>Not migrated</h3>
          <p>Recreate these in the new OWASP Core Ruleset (overrides below):</p>
          <ul>
            {notMigrated.map((m) => (
              <li key={m.message}>{m.message}</li>
            ))}
          </ul>
        </section>
      )}
      {notes.length > 0 && (
        <section class="card">
          <h3>Notes</h3>
          <ul>
            {notes.map((m) => (
              <li key={m.message}>{m.message}</li>
            ))}
          </ul>
        </section>
      )}
      {config.rules.length === 0 && <p class="muted">The entry point has no rules.</p>}
      {config.rules.map((rule, i) => (
        <RuleEditor
          key={i}
          index={i}
          rule={rule}
          accountId={props.session.account.id}
          onChange={(next) => edit(replaceRule(config, i, next))}
        />
      ))}
      <details class="card">
        <summary>Configuration as JSON</summary>
        <pre data-testid="configuration-json">{JSON.stringify(bodyOf(config), null, 2)}</pre>
      </details>
      {phase !== 'complete' && (
        <div class="actions">
          {reviewing ? (
            <>
              <button
                type="button"
                class="primary"
                disabled={phase === 'deploying' || loaded.check?.compatible === false}
                onClick={deploy}
              >
                Deploy
              </button>
              <span class="muted">
                {enterprise && state === 'start'
                  ? 'Runs the new version beside the previous one (validation mode).'
                  : 'Turns the previous version off. This cannot be undone.'}
              </span>
            </>
          ) : (
            <button type="button" class="primary" onClick={save}>
              Save configuration
            </button>
          )}
        </div>
      )}
    </>
  );
}
