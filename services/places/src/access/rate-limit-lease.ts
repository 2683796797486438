import type { Clock } from '@cairn/kit';
import { decision, type RateDecision, type RateLimiter, type RateOptions } from './rate-limit.ts';

/** What one call to a shared bucket asks for. */
export interface TakeRequest {
  /** Tokens for the calls waiting now: as many of them as the bucket has whole tokens. */
  want: number;
  /** Tokens to take ahead of calls: only from the half of the bucket above the reserve (see takeFromBucket). */
  ahead: number;
  /** Unspent tokens going back to the bucket first. */
  giveBack: number;
}

/**
 * A shared store's token buckets (PostgreSQL or Redis), taken from several tokens at a time, each call
 * atomically as takeFromBucket says.
 */
export interface SharedBuckets {
  readonly store: 'database' | 'redis';
  takeUpTo(credentialId: string, request: TakeRequest): Promise<{ granted: number; tokens: number }>;
  close(): Promise<void>;
}

/**
 * One call to a bucket holding `refilled` tokens (after refill and the tokens given back): the calls waiting get
 * whole tokens while there are any; tokens are taken ahead only while more than half the bucket would be left,
 * so a credential near its limit is served call by call (hosts do not hold tokens another host's calls need).
 * The PostgreSQL statement and the Redis script compute the same.
 */
export function takeFromBucket(refilled: number, burst: number, request: TakeRequest) {
  const now = Math.min(request.want, Math.floor(refilled));
  const extra = Math.min(request.ahead, Math.max(0, Math.floor(refilled - now - burst / 2)));
  return { granted: now + extra, tokens: refilled - now - extra };
}

/** How long a process may hold tokens taken ahead of its calls before they go back to the shared bucket. */
export const LEASE_MS = 100;
/** The most of a bucket one process takes ahead at once. */
const MAX_AHEAD_SHARE = 0.25;
/** Demand is counted in windows of this length, and smoothed from one window to the next. */
const DEMAND_WINDOW_MS = 100;

interface Waiter {
  resolve(d: RateDecision): void;
  reject(error: unknown): void;
}

interface Lease {
  /** Whole tokens this process took from the shared bucket and has not spent. */
  held: number;
  /** When the held tokens go back (clock ms). */
  heldUntil: number;
  /** Tokens to add back to the shared bucket with the next call to it. */
  giveBack: number;
  /** Calls waiting for the call to the shared bucket in flight, or for the next one. */
  waiting: Waiter[];
  taking: boolean;
  /** This process's calls per second for the credential (smoothed) and the count of the current window. */
  rate: number;
  windowStart: number;
  windowCalls: number;
}

/**
 * The rate limit over a shared store without a round trip to it per call. A process takes tokens from the
 * shared bucket for the calls waiting now, plus, when a credential is busy here (two calls or more expected in
 * a lease) and far from its limit (more than half its bucket left), what its calls of the next LEASE_MS will
 * need, at most a quarter of the bucket; those are spent locally, and whatever is unspent when the lease ends
 * goes back with the next call to the store. Calls that arrive while a call to the store is in flight wait for
 * it and are served together by the next, so a busy credential costs one statement per lease or per round
 * trip, not one per call. A credential called one call at a time, or near its limit, asks the store for every
 * call, exactly as a single bucket would answer.
 *
 * What the documented limit becomes: tokens are only ever taken from the shared bucket, so across all hosts a
 * credential gets at most `burst + rate × T` calls in any T seconds of taking; a call may be served up to
 * LEASE_MS after its token was taken, so over T seconds of calls the bound is `burst + rate × (T + 0.1 s)`.
 */
export function createLeasedRateLimiter(
  shared: SharedBuckets,
  clock: Clock,
  options: RateOptions,
): RateLimiter {
  const leases = new Map<string, Lease>();
  const maxAhead = Math.floor(options.burst * MAX_AHEAD_SHARE);
  let sweptAt = clock.nowMs();

  function leaseOf(credentialId: string, now: number): Lease {
    let lease = leases.get(credentialId);
    if (!lease) {
      lease = {
        held: 0,
        heldUntil: 0,
        giveBack: 0,
        waiting: [],
        taking: false,
        rate: 0,
        windowStart: now,
        windowCalls: 0,
      };
      leases.set(credentialId, lease);
    }
    return lease;
  }

  function countCall(lease: Lease, now: number) {
    const elapsed = now - lease.windowStart;
    if (elapsed >= DEMAND_WINDOW_MS) {
      // Windows without calls count as zero: after a pause of several windows the estimate is near zero.
      const windows = Math.min(20, Math.floor(elapsed / DEMAND_WINDOW_MS));
      const measured = (lease.windowCalls * 1000) / DEMAND_WINDOW_MS;
      lease.rate = (0.5 * lease.rate + 0.5 * measured) * 0.5 ** (windows - 1);
      lease.windowStart = now;
      lease.windowCalls = 0;
    }
    lease.windowCalls++;
  }

  /**
   * Tokens to take beyond the calls waiting: what this process's calls of the next lease will need, at the
   * smoothed rate or at least the rate the calls of the current window already make (so a credential that
   * becomes busy is served in leases within its first window).
   */
  function ahead(lease: Lease): number {
    const rate = Math.max(lease.rate, (lease.windowCalls * 1000) / DEMAND_WINDOW_MS);
    const expected = Math.floor((rate * LEASE_MS) / 1000);
    // A credential expecting fewer than two calls in a lease takes nothing ahead: each call asks the store.
    return expected < 2 ? 0 : Math.min(maxAhead, expected);
  }

  /** Unspent tokens whose lease has ended are given back with the next call to the store. */
  function expire(lease: Lease, now: number) {
    if (lease.held > 0 && now > lease.heldUntil) {
      lease.giveBack += lease.held;
      lease.held = 0;
    }
  }

  /** Leases of idle credentials are forgotten once a minute (their unspent tokens are lost, not over-given). */
  function sweep(now: number) {
    if (now - sweptAt < 60_000) return;
    sweptAt = now;
    for (const [id, lease] of leases) {
      if (!lease.taking && lease.waiting.length === 0 && now - lease.windowStart > 60_000) leases.delete(id);
    }
  }

  async function takeFromStore(credentialId: string, lease: Lease) {
    lease.taking = true;
    const asked = lease.waiting.length;
    const request = { want: asked, ahead: ahead(lease), giveBack: lease.giveBack };
    lease.giveBack = 0;
    let answer: { granted: number; tokens: number };
    try {
      answer = await shared.takeUpTo(credentialId, request);
    } catch (error) {
      // The store did not answer (the tokens to give back are lost: fewer calls allowed, never more).
      lease.taking = false;
      for (const waiter of lease.waiting.splice(0, asked)) waiter.reject(error);
      if (lease.waiting.length > 0) void takeFromStore(credentialId, lease);
      return;
    }
    const now = clock.nowMs();
    let granted = answer.granted;
    // Served in arrival order: those counted in this call, then any that came while it was in flight.
    let served = 0;
    while (lease.waiting.length > 0 && granted > 0) {
      lease.waiting.shift()!.resolve({ ok: true });
      granted--;
      served++;
    }
    if (granted > 0) {
      lease.held += granted;
      lease.heldUntil = now + LEASE_MS;
    }
    // The bucket had fewer tokens than asked for: the rest of the calls counted in this one are refused.
    const refused = Math.max(0, asked - served);
    const denial = decision(false, answer.tokens, options);
    for (const waiter of lease.waiting.splice(0, refused)) waiter.resolve(denial);
    lease.taking = false;
    if (lease.waiting.length > 0) void takeFromStore(credentialId, lease);
  }

  return {
    store: shared.store,
    take(credentialId) {
      const now = clock.nowMs();
      sweep(now);
      const lease = leaseOf(credentialId, now);
      countCall(lease, now);
      expire(lease, now);
      if (lease.held >= 1 && lease.waiting.length === 0) {
        lease.held--;
        return Promise.resolve({ ok: true });
      }
      return new Promise<RateDecision>((resolve, reject) => {
        lease.waiting.push({ resolve, reject });
        if (!lease.taking) void takeFromStore(credentialId, lease);
      });
    },
    close: () => shared.close(),
    clear() {
      leases.clear();
    },
  };
}
