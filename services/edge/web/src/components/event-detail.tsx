import type { EventRow } from '../analytics.ts';
import { hrefOf } from '../router.ts';

const RULESETS: Record<string, string> = {
  efb7b8c949ac4650a09736fc376e9aee: 'Cairn Managed Ruleset',
  '4814384a9e5d4991b9815dcfc25d2f1f': 'Cairn OWASP Core Ruleset',
};

/**
 * Where a rule lives in the zone's configuration: the previous WAF's rules on the WAF tab, the new WAF's
 * managed rules in the managed-rules configuration, at the rule's anchor.
 */
export function configurationHref(zoneId: string, e: EventRow): string {
  if (e.source === 'waf') return `${hrefOf({ name: 'zone', id: zoneId })}#rule-${e.ruleId}`;
  return `${hrefOf({ name: 'upgrade', id: zoneId })}#rule-${e.ruleId}`;
}

/** One event: the matched rule, its ruleset and what it matched, and the request. */
export function EventDetail(props: { zoneId: string; event: EventRow; onClose: () => void }) {
  const e = props.event;
  return (
    <section class="card detail" data-testid="event-detail" aria-label="Event detail">
      <button type="button" class="close" aria-label="Close" onClick={props.onClose}>
        ×
      </button>
      <h3>
        <span class={`badge action-${e.action}`}>{e.action}</span> Ray ID <code>{e.rayName}</code>
      </h3>
      <dl>
        <dt>Rule</dt>
        <dd data-testid="detail-rule">
          <code>{e.ruleId}</code> {e.description}{' '}
          <a href={configurationHref(props.zoneId, e)} data-testid="rule-link">
            Show in configuration
          </a>
        </dd>
        <dt>Ruleset</dt>
        <dd data-testid="detail-ruleset">
          {RULESETS[e.rulesetId] ?? (e.source === 'waf' ? 'Previous WAF package' : '')}{' '}
          <code>{e.rulesetId}</code>
          {e.wafVersion ? ` (${e.wafVersion} WAF)` : ''}
        </dd>
        <dt>Matched data</dt>
        <dd>
          {e.matchedData.length === 0 && <span class="muted">none recorded</span>}
          {e.matchedData.length > 0 && (
            <table class="list" data-testid="detail-matched">
              <tbody>
                {e.matchedData.map((m, i) => (
                  <tr key={`${m.name}-${i}`}>
                    <th scope="row">
                      <code>{m.name}</code>
                    </th>
                    <td>
                      <code>{m.value}</code>
                      {m.message ? <span class="muted"> {m.message}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </dd>
        <dt>Request</dt>
        <dd>
          {e.clientRequestHTTPMethodName}{' '}
          <code>
            {e.clientRequestQuery ? `${e.clientRequestPath}?${e.clientRequestQuery}` : e.clientRequestPath}
          </code>
          {e.edgeResponseStatus ? ` → ${e.edgeResponseStatus}` : ''}
        </dd>
        <dt>Client</dt>
        <dd>
          {e.clientIP} <span class="muted">{e.userAgent}</span>
        </dd>
        <dt>When</dt>
        <dd>{e.datetime}</dd>
      </dl>
    </section>
  );
}
