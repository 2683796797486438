import { useEffect, useState } from 'preact/hooks';
import {
  type Dimension,
  type EventRow,
  type Filters,
  type Group,
  type Overview,
  overview,
  RANGES,
} from '../analytics.ts';
import { api, type Zone } from '../api.ts';
import { EventDetail } from '../components/event-detail.tsx';
import { ErrorText, Loading } from '../components/state.tsx';
import { TimelineChart } from '../components/timeline-chart.tsx';
import { TopList } from '../components/top-list.tsx';
import { ZoneHeader } from '../components/zone-tabs.tsx';

const FIELD_LABELS: Record<Dimension, string> = {
  action: 'Action',
  ruleId: 'Rule ID',
  clientRequestPath: 'Path',
  clientIP: 'Client IP',
  userAgent: 'User agent',
  source: 'Source',
};

export const SOURCE_LABELS: Record<string, string> = {
  firewallManaged: 'Managed rules (new WAF)',
  waf: 'Managed rules (previous WAF)',
  firewallCustom: 'Custom rules',
  firewallRules: 'Firewall rules',
};

/**
 * Security Events: a timeline by action, top-N breakdowns and the sampled events, all from one GraphQL
 * Analytics API query (the same one an integrator would send), narrowed by a time range and field filters.
 */
export function EventsPage(props: { id: string }) {
  const [zone, setZone] = useState<Zone | undefined>();
  const [filters, setFilters] = useState<Filters>({ range: 30, fields: {} });
  const [data, setData] = useState<(Overview & { now: number }) | undefined>();
  const [selected, setSelected] = useState<EventRow | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [draft, setDraft] = useState<{ field: Dimension; value: string }>({ field: 'clientIP', value: '' });

  const refresh = () => {
    const now = Date.now();
    return overview(props.id, filters, now).then(
      (o) => {
        setError(undefined);
        setData({ ...o, now });
      },
      (e: Error) => setError(e.message),
    );
  };
  useEffect(() => {
    api.zone(props.id).then(
      (z) => setZone(z.result),
      (e: Error) => setError(e.message),
    );
  }, [props.id]);
  useEffect(() => {
    void refresh();
  }, [props.id, filters]);

  const pick = (field: Dimension, value: string) =>
    setFilters({ ...filters, fields: { ...filters.fields, [field]: value } });
  const drop = (field: Dimension) => {
    const fields = { ...filters.fields };
    delete fields[field];
    setFilters({ ...filters, fields });
  };
  const range = RANGES.find((r) => r.minutes === filters.range) ?? RANGES[0]!;
  const top = (title: string, field: Exclude<Dimension, 'action'>, label?: (g: Group) => string) => (
    <TopList
      title={title}
      testid={`top-${field}`}
      groups={data?.top[field] ?? []}
      label={label ?? ((g) => g.dimensions[field] ?? '')}
      onPick={(g) => pick(field, g.dimensions[field] ?? '')}
    />
  );

  if (!zone) return error ? <ErrorText error={error} /> : <Loading />;
  return (
    <>
      <ZoneHeader zone={zone} current="events" />
      <h2>Security Events</h2>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.value !== '') pick(draft.field, draft.value);
          setDraft({ ...draft, value: '' });
        }}
      >
        <label>
          Time range
          <select
            name="range"
            value={String(filters.range)}
            onChange={(e) =>
              setFilters({ ...filters, range: Number((e.currentTarget as HTMLSelectElement).value) })
            }
          >
            {RANGES.map((r) => (
              <option key={r.minutes} value={String(r.minutes)}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Field
          <select
            name="field"
            value={draft.field}
            onChange={(e) =>
              setDraft({ ...draft, field: (e.currentTarget as HTMLSelectElement).value as Dimension })
            }
          >
            {(Object.keys(FIELD_LABELS) as Dimension[]).map((f) => (
              <option key={f} value={f}>
                {FIELD_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        <label>
          equals
          <input
            name="value"
            value={draft.value}
            onInput={(e) => setDraft({ ...draft, value: (e.currentTarget as HTMLInputElement).value })}
          />
        </label>
        <button type="submit">Add filter</button>
        <button type="button" onClick={refresh}>
          Refresh
        </button>
      </form>
      <p class="filters" data-testid="filters">
        {(Object.entries(filters.fields) as [Dimension, string][]).map(([field, value]) => (
          <span key={field} class="chip">
            {FIELD_LABELS[field]} = <code>{value}</code>{' '}
            <button
              type="button"
              aria-label={`Remove the ${FIELD_LABELS[field]} filter`}
              onClick={() => drop(field)}
            >
              ×
            </button>
          </span>
        ))}
      </p>
      <ErrorText error={error} />
      {!data && !error && <Loading />}
      {data && (
        <>
          <p data-testid="total">
            <strong>{data.total}</strong> events, {range.label.toLowerCase()}
          </p>
          <TimelineChart groups={data.timeline} since={data.since} seconds={range.seconds} now={data.now} />
          <div class="tops">
            {top('Top rules', 'ruleId', (g) =>
              `${g.dimensions.ruleId} ${g.dimensions.description ?? ''}`.trim(),
            )}
            {top('Top paths', 'clientRequestPath')}
            {top('Top client IPs', 'clientIP')}
            {top('Top user agents', 'userAgent')}
            {top(
              'Top sources',
              'source',
              (g) => SOURCE_LABELS[g.dimensions.source ?? ''] ?? g.dimensions.source ?? '',
            )}
          </div>
          {selected && (
            <EventDetail zoneId={zone.id} event={selected} onClose={() => setSelected(undefined)} />
          )}
          <h3>Sampled events</h3>
          {data.events.length === 0 && <p class="muted">No events in this range.</p>}
          {data.events.length > 0 && (
            <table class="list events" data-testid="events">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Action</th>
                  <th scope="col">Source</th>
                  <th scope="col">Rule</th>
                  <th scope="col">Request</th>
                  <th scope="col">Client</th>
                </tr>
              </thead>
              <tbody>
                {data.events.map((e) => (
                  <tr
                    key={`${e.rayName}-${e.ruleId}`}
                    class={selected === e ? 'selected' : ''}
                    onClick={() => setSelected(e)}
                    data-ray={e.rayName}
                  >
                    <td>{new Date(e.datetime).toLocaleString()}</td>
                    <td>
                      <span class={`badge action-${e.action}`}>{e.action}</span>
                    </td>
                    <td>{SOURCE_LABELS[e.source] ?? e.source}</td>
                    <td>
                      <code>{e.ruleId}</code> <span class="muted">{e.description}</span>
                    </td>
                    <td>
                      {e.clientRequestHTTPMethodName}{' '}
                      <code>
                        {e.clientRequestQuery
                          ? `${e.clientRequestPath}?${e.clientRequestQuery}`
                          : e.clientRequestPath}
                      </code>
                    </td>
                    <td>{e.clientIP}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </>
  );
}
