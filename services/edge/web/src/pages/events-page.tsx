import { useEffect, useState } from 'preact/hooks';
import { api, type SecurityEvent, type Zone } from '../api.ts';
import { ErrorText, Loading } from '../components/state.tsx';
import { ZoneHeader } from '../components/zone-tabs.tsx';

const ACTIONS = ['', 'block', 'managed_challenge', 'challenge', 'js_challenge', 'log', 'skip'];

/** Sampled requests the WAF blocked, challenged, logged or skipped, newest first. */
export function EventsPage(props: { id: string }) {
  const [zone, setZone] = useState<Zone | undefined>();
  const [events, setEvents] = useState<SecurityEvent[] | undefined>();
  const [action, setAction] = useState('');
  const [error, setError] = useState<string | undefined>();
  const refresh = () =>
    api.events(props.id, action || undefined).then(
      (r) => setEvents(r.result),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    api.zone(props.id).then(
      (z) => setZone(z.result),
      (e: Error) => setError(e.message),
    );
  }, [props.id]);
  useEffect(() => {
    void refresh();
  }, [props.id, action]);

  if (!zone) return error ? <ErrorText error={error} /> : <Loading />;
  return (
    <>
      <ZoneHeader zone={zone} current="events" />
      <h2>Security Events</h2>
      <div class="toolbar">
        <label>
          Action
          <select value={action} onChange={(e) => setAction((e.currentTarget as HTMLSelectElement).value)}>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a === '' ? 'any' : a}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={refresh}>
          Refresh
        </button>
      </div>
      <ErrorText error={error} />
      {!events && <Loading />}
      {events && events.length === 0 && <p class="muted">No events yet.</p>}
      {events && events.length > 0 && (
        <table class="list events" data-testid="events">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">WAF</th>
              <th scope="col">Rule</th>
              <th scope="col">Request</th>
              <th scope="col">Client</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={`${e.ray_id}-${e.rule_id}`}>
                <td>{new Date(e.occurred_at).toLocaleString()}</td>
                <td>
                  <span class={`badge action-${e.action}`}>{e.action}</span>
                </td>
                <td>{e.waf === 'new' ? 'New' : e.waf === 'previous' ? 'Previous' : '—'}</td>
                <td>
                  <code>{e.rule_id}</code> <span class="muted">{e.rule_message}</span>
                </td>
                <td>
                  {e.method} <code>{e.query ? `${e.path}?${e.query}` : e.path}</code>
                </td>
                <td>{e.ip}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
