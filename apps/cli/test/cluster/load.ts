// The clients of the multi-host test: a bounded mixed load through the balancer, with the retry rule and a
// ledger of what each client saw acknowledged.
//
// The retry rule (docs/operations.md, "Failover"): a client may retry a request when it got no answer (the
// connection was reset, closed or refused before an answer) or the balancer answered 502, 503 or 504 — the
// host died or was taken out before it answered. Such a request may or may not have been carried out, so
// a retried write can be done twice unless it is idempotent (votes are: one per voter and edit). Every
// other answer is final: 2xx is an acknowledgement, 4xx and 500 are errors the client must not retry.
import { Agent, request } from 'undici';

export type Phase = 'warmup' | 'failover' | 'recovered' | 'rolling' | 'settle';

export interface Call {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Outcome {
  status: number;
  body: string;
}

/** A request that ended without an acknowledgement, and why. */
export interface Failure {
  op: string;
  phase: Phase;
  what: string;
  retryable: boolean;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

export class Ledger {
  phase: Phase = 'warmup';
  inFlight = 0;
  sent = 0;
  acknowledged = 0;
  /** Answers that are not 2xx, or no answer at all, per attempt (including the ones retried). */
  failures: Failure[] = [];
  /** Attempts that got a retryable failure and were tried again. */
  retried = 0;
  /** Requests that ended without an acknowledgement after every retry. */
  gaveUp = 0;
  readonly users = { acknowledged: new Set<number>(), attempts: 0 };
  readonly edits = { acknowledged: new Set<string>(), attempts: 0 };
  /** `${edit}|${voter}` → the vote value acknowledged last, and the pairs attempted. */
  readonly votes = { acknowledged: new Map<string, string>(), attempted: new Set<string>() };
  readonly dns = { acknowledged: new Set<string>(), attempts: 0 };
  searches = 0;
  proxied = 0;
  private readonly agent = new Agent({ connections: 64, keepAliveTimeout: 4_000 });

  /**
   * Sends a call, retrying by the rule above (at most 6 attempts, 100 ms more wait each time); resolves with
   * the final answer, or undefined when every attempt failed or the answer is not 2xx.
   */
  async send(op: string, call: Call, onAttempt?: () => void): Promise<Outcome | undefined> {
    this.sent++;
    for (let attempt = 1; ; attempt++) {
      onAttempt?.();
      this.inFlight++;
      let failure: Failure | undefined;
      let outcome: Outcome | undefined;
      try {
        const res = await request(call.url, {
          method: call.method,
          headers: call.headers,
          body: call.body ?? null,
          dispatcher: this.agent,
          headersTimeout: 60_000,
          bodyTimeout: 60_000,
        });
        const body = await res.body.text();
        if (res.statusCode >= 200 && res.statusCode < 300) outcome = { status: res.statusCode, body };
        else {
          failure = {
            op,
            phase: this.phase,
            what: `${res.statusCode} ${body.slice(0, 200)}`,
            retryable: RETRYABLE_STATUS.has(res.statusCode),
          };
        }
      } catch (error) {
        const e = error as Error & { code?: string };
        failure = { op, phase: this.phase, what: `${e.code ?? e.name}: ${e.message}`, retryable: true };
      } finally {
        this.inFlight--;
      }
      if (outcome) {
        this.acknowledged++;
        return outcome;
      }
      this.failures.push(failure!);
      if (!failure!.retryable || attempt >= 6) {
        this.gaveUp++;
        return undefined;
      }
      this.retried++;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }

  close() {
    return this.agent.close();
  }
}
