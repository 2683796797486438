import type { AuthContext, Clock, Db } from '@cairn/kit';
import { addUsage, type UsageDelta } from '../store/usage.ts';

/**
 * Every call is attributed (organization, app, user) and counted per credential, endpoint and day. Counts are
 * summed in memory and added to the database about once a second, so counting costs a request nothing.
 */
export interface UsageCounter {
  record(auth: AuthContext, endpoint: string, throttled: boolean): void;
  flush(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createUsageCounter(db: Db, clock: Clock, intervalMs = 1000): UsageCounter {
  let pending = new Map<string, UsageDelta>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  async function flush() {
    const batch = [...pending.values()];
    pending = new Map();
    flushing = flushing
      .then(() => addUsage(db, batch))
      .catch(() => {
        // The database was unreachable: keep the counts for the next flush rather than lose them.
        for (const d of batch) merge(d);
      });
    await flushing;
  }

  function merge(d: UsageDelta) {
    const key = `${d.day}|${d.credentialId}|${d.endpoint}`;
    const existing = pending.get(key);
    if (existing) {
      existing.calls += d.calls;
      existing.throttled += d.throttled;
      if (d.lastCallAt > existing.lastCallAt) existing.lastCallAt = d.lastCallAt;
    } else pending.set(key, { ...d });
  }

  return {
    record(auth, endpoint, throttled) {
      const now = clock.now();
      merge({
        day: now.toISOString().slice(0, 10),
        credentialId: auth.credentialId,
        endpoint,
        credentialKind: auth.kind,
        organizationId: auth.organizationId,
        appId: auth.appId ?? null,
        userId: auth.userId ?? null,
        calls: throttled ? 0 : 1,
        throttled: throttled ? 1 : 0,
        lastCallAt: now,
      });
    },
    flush,
    start() {
      timer ??= setInterval(() => void flush(), intervalMs).unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}
