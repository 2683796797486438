// What each WAF decided for each request of the differential harness (issue 40): ModSecurity v3 behind
// nginx (bench/waf-modsec.ts), Cairn's seclang engine, and Cairn's edge proxy (bench/waf-edge-target.ts).
import http from 'node:http';
import { loadCrsSync } from '../packages/seclang/src/index.ts';
import { type RecordedRequest, toWafRequest } from '../packages/seclang/test/waf-differential/corpus.ts';
import { ModsecServer, send } from './waf-modsec.ts';

export type Pl = 1 | 2 | 3 | 4;

export interface Verdict {
  blocked: boolean;
  status: number;
  /** The rules that matched (ModSecurity: from its log; engine: matchedRules; edge: none). */
  rules: number[];
  /** The request could not be sent as recorded. */
  error?: string;
}

/** ModSecurity's decisions at one paranoia level, threshold 5: anything but the backend's 200 is a block. */
export async function modsecVerdicts(list: readonly RecordedRequest[], pl: Pl): Promise<Verdict[]> {
  const server = await ModsecServer.start(pl, { threshold: 5, logLevel: 'info' });
  try {
    const out: Verdict[] = [];
    for (const r of list) {
      const { status, ruleIds, error } = await server.decide(toWafRequest(r));
      if (error && !server.running)
        throw new Error(`nginx + ModSecurity exited during the replay (${error})`);
      out.push(
        error
          ? { ...failedSend(new Error(error)), rules: ruleIds }
          : { blocked: status !== 200, status, rules: ruleIds },
      );
    }
    return out;
  } finally {
    await server.stop();
  }
}

/** Cairn's seclang engine with the same Debian CRS, at one paranoia level, threshold 5. */
export function engineVerdicts(list: readonly RecordedRequest[], pl: Pl): Verdict[] {
  const waf = loadCrsSync({ paranoiaLevel: pl, inboundThreshold: 5, timeBudgetMs: 10_000 });
  return list.map((r) => {
    const result = waf.evaluate(toWafRequest(r));
    return {
      blocked: result.decision !== 'allow',
      status: result.decision === 'allow' ? 200 : (result.status ?? 403),
      rules: [...new Set(result.matchedRules.map((m) => m.id))],
    };
  });
}

/**
 * Cairn's edge proxy (bench/waf-edge-target.ts) at one paranoia level: the request with the zone's Host (an
 * injected Host header cannot reach a zone, so it is replaced too). Any answer but the origin's 200 is a block.
 */
export async function edgeVerdicts(
  list: readonly RecordedRequest[],
  port: number,
  host: string,
): Promise<Verdict[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const out: Verdict[] = [];
  try {
    for (const r of list) {
      const req = toWafRequest(r);
      req.headers = req.headers.map(([n, v]) => (n.toLowerCase() === 'host' ? [n, host] : [n, v]));
      try {
        const status = await send(agent, port, req);
        out.push({ blocked: status !== 200, status, rules: [] });
      } catch (err) {
        out.push(failedSend(err));
      }
    }
  } finally {
    agent.destroy();
  }
  return out;
}

/**
 * A request Node refuses to send as recorded (a header value with a control character) was not replayed
 * (`error`, not blocked); a connection the server closed without an answer is a block (a drop).
 */
function failedSend(err: unknown): Verdict {
  const e = err as Error & { code?: string };
  const unsendable = e.code === 'ERR_INVALID_CHAR' || /Invalid character|ERR_INVALID/.test(e.message);
  return unsendable
    ? { blocked: false, status: 0, rules: [], error: e.message }
    : { blocked: true, status: 0, rules: [] };
}
