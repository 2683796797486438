import { useEffect, useState } from 'preact/hooks';
import { type ApiMessage, api, type Check, type HistoryEvent, type Status, type Zone } from '../api.ts';
import { Link } from '../components/link.tsx';
import { ErrorText, Loading, STATE_LABELS } from '../components/state.tsx';
import { ZoneHeader } from '../components/zone-tabs.tsx';
import { bodyOf } from '../config.ts';

interface ZoneView {
  zone: Zone;
  status: Status;
  check: Check;
  checkMessages: ApiMessage[];
  history: HistoryEvent[];
}

async function load(id: string): Promise<ZoneView> {
  const [zone, status, check, history] = await Promise.all([
    api.zone(id),
    api.status(id),
    api.check(id),
    api.history(id),
  ]);
  return {
    zone: zone.result,
    status: status.result,
    check: check.result,
    checkMessages: check.messages,
    history: history.result,
  };
}

export function ZonePage(props: { id: string }) {
  const [view, setView] = useState<ZoneView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const reload = () => load(props.id).then(setView, (e: Error) => setError(e.message));
  useEffect(() => {
    void reload();
  }, [props.id]);

  if (!view) return error ? <ErrorText error={error} /> : <Loading />;
  const { zone, status } = view;
  return (
    <>
      <ZoneHeader zone={zone} current="waf" />
      <UpgradeBanner view={view} onChanged={reload} />
      <section class="card">
        <h2>Status</h2>
        <dl class="status" data-testid="waf-status">
          <dt>Previous version of the WAF managed rules</dt>
          <dd>{status.old_waf_status === 'enabled' ? 'Enabled' : 'Disabled'}</dd>
          <dt>New WAF Managed Rules</dt>
          <dd>{status.new_waf_status === 'enabled' ? 'Enabled' : 'Disabled'}</dd>
          <dt>Upgrade</dt>
          <dd data-testid="migration-state">{STATE_LABELS[status.migration_state]}</dd>
        </dl>
      </section>
      <section class="card">
        <h2>History</h2>
        {view.history.length === 0 ? (
          <p class="muted">No changes yet.</p>
        ) : (
          <table class="list" data-testid="history">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Change</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {view.history.map((e) => (
                <tr key={e.seq}>
                  <td>{new Date(e.at).toLocaleString()}</td>
                  <td>
                    {e.from === e.to
                      ? `${STATE_LABELS[e.to]}: configuration changed`
                      : `${STATE_LABELS[e.from]} → ${STATE_LABELS[e.to]}`}
                  </td>
                  <td>{e.actor.type === 'api_token' ? `API token “${e.actor.name}”` : e.actor.name}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function UpgradeBanner(props: { view: ZoneView; onChanged: () => Promise<unknown> }) {
  const { zone, status, check, checkMessages } = props.view;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const state = status.migration_state;

  async function turnOffPrevious() {
    setBusy(true);
    setError(undefined);
    try {
      const current = (await api.entrypoint(zone.id)).result;
      await api.upgrade(zone.id, 'pending', bodyOf(current));
      setDone(true);
      setConfirming(false);
      await props.onChanged();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <section class="banner success" role="status" data-testid="upgrade-done">
        The previous version is turned off: the zone uses the new WAF Managed Rules. Refresh the dashboard to
        see completion everywhere.
      </section>
    );
  }
  if (state === 'complete') {
    return (
      <section class="banner success" data-testid="upgrade-complete">
        This zone uses the new WAF Managed Rules. Adjust them in{' '}
        <Link to={{ name: 'upgrade', id: zone.id }}>Managed rules configuration</Link>; exempt traffic with
        skip rules (the page-rule WAF setting no longer applies).
      </section>
    );
  }
  if (state === 'default') {
    return (
      <section class="banner" data-testid="no-previous-waf">
        {checkMessages[0]?.message ??
          'This zone never had the previous WAF managed rules: there is nothing to upgrade.'}{' '}
        Its WAF is configured in{' '}
        <Link to={{ name: 'upgrade', id: zone.id }}>Managed rules configuration</Link> (the Rulesets API).
      </section>
    );
  }
  if (state === 'validation') {
    return (
      <section class="banner" aria-labelledby="upgrade-title" data-testid="upgrade-banner">
        <h2 id="upgrade-title">Validation mode</h2>
        <p>
          The new WAF Managed Rules run before the previous version, which stays enabled. Review what they
          catch in <Link to={{ name: 'events', id: zone.id }}>Security Events</Link>, adjust the{' '}
          <Link to={{ name: 'upgrade', id: zone.id }}>configuration</Link>, then finish the upgrade.
        </p>
        <ErrorText error={error} />
        {!confirming ? (
          <button type="button" class="primary" onClick={() => setConfirming(true)}>
            Ready to update
          </button>
        ) : (
          <div class="confirm">
            <p>
              Turning off the previous version finishes the upgrade. <strong>This cannot be undone</strong>:
              its API stops working and only the Rulesets API manages the zone's WAF.
            </p>
            <button type="button" class="danger" disabled={busy} onClick={turnOffPrevious}>
              Turn off previous version
            </button>
            <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        )}
      </section>
    );
  }
  const ineligible = checkMessages.filter((m) => !check.compatible && m.code === 10718);
  return (
    <section class="banner" aria-labelledby="upgrade-title" data-testid="upgrade-banner">
      <h2 id="upgrade-title">Upgrade to the new WAF Managed Rules</h2>
      <p>
        A ruleset engine with the Rules language, overrides per rule and per tag, conditional deployment, and
        the OWASP Core Ruleset 3.x with paranoia levels and a score threshold. The upgrade is irreversible.
      </p>
      <p class="muted">
        {zone.plan.legacy_id === 'enterprise'
          ? 'Enterprise: Deploy first runs the new version beside the previous one (validation mode), so you can review and adjust before turning the previous version off.'
          : 'When the new version is deployed, the previous version is turned off automatically.'}
      </p>
      {check.compatible ? (
        <Link to={{ name: 'upgrade', id: zone.id }} class="button primary">
          Review configuration
        </Link>
      ) : (
        <div role="alert" class="error">
          <p>This zone cannot be upgraded yet:</p>
          <ul>
            {ineligible.map((m) => (
              <li key={m.message}>{m.message}</li>
            ))}
          </ul>
          <p>
            URI-based WAF overrides are managed with the API only: delete them with DELETE /zones/{zone.id}
            /firewall/waf/overrides/&lt;id&gt;.
          </p>
        </div>
      )}
    </section>
  );
}
