import type { Clock } from './clock.ts';
import type { Queryable } from './db/types.ts';
import { tooManyRequests } from './errors.ts';

/** This many failures in the window lock an email (or a client address) until the window has passed. */
export interface ThrottleLimits {
  windowMs: number;
  perEmail: number;
  perIp: number;
}

/**
 * Failed sign-ins kept in a table `(email, ip, at)` (email null when none was given, as with an API token),
 * counted per email and per client address. `check` throws 429 with Retry-After while either is locked.
 */
export class SignInThrottle {
  constructor(
    private readonly table: string,
    readonly limits: ThrottleLimits,
  ) {
    if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  }

  async check(db: Queryable, clock: Clock, email: string | null, ip: string): Promise<void> {
    const since = new Date(clock.nowMs() - this.limits.windowMs);
    const { rows } = await db.query<{
      by_email: number;
      by_ip: number;
      oldest_email: Date | null;
      oldest_ip: Date | null;
    }>(
      `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email,
              count(*) FILTER (WHERE ip = $2)::int AS by_ip,
              min(at) FILTER (WHERE email = $1) AS oldest_email,
              min(at) FILTER (WHERE ip = $2) AS oldest_ip
         FROM ${this.table} WHERE (email = $1 OR ip = $2) AND at > $3`,
      [email, ip, since],
    );
    const r = rows[0]!;
    const locked =
      r.by_email >= this.limits.perEmail
        ? r.oldest_email
        : r.by_ip >= this.limits.perIp
          ? r.oldest_ip
          : undefined;
    if (locked === undefined) return;
    const wait = locked
      ? Math.max(1, Math.ceil((locked.getTime() + this.limits.windowMs - clock.nowMs()) / 60_000))
      : 1;
    throw tooManyRequests(
      `Too many failed sign-ins. Try again in ${wait} minute${wait === 1 ? '' : 's'}.`,
      wait * 60,
    );
  }

  async recordFailure(db: Queryable, clock: Clock, email: string | null, ip: string): Promise<void> {
    await db.query(`INSERT INTO ${this.table} (email, ip, at) VALUES ($1, $2, $3)`, [email, ip, clock.now()]);
  }

  /** A successful sign-in forgets the email's failures. */
  async clear(db: Queryable, email: string): Promise<void> {
    await db.query(`DELETE FROM ${this.table} WHERE email = $1`, [email]);
  }
}
