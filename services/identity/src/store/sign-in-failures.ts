import type { Queryable } from '@cairn/kit';

export async function recordSignInFailure(db: Queryable, email: string, ip: string, at: Date): Promise<void> {
  await db.query('INSERT INTO sign_in_failures (email, ip, at) VALUES ($1, $2, $3)', [email, ip, at]);
}

/** Failures since `since` for this email and from this address, and the oldest of them (for the wait). */
export async function countSignInFailures(
  db: Queryable,
  email: string,
  ip: string,
  since: Date,
): Promise<{ byEmail: number; byIp: number; oldestByEmail: Date | null; oldestByIp: Date | null }> {
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
       FROM sign_in_failures WHERE (email = $1 OR ip = $2) AND at > $3`,
    [email, ip, since],
  );
  const r = rows[0]!;
  return { byEmail: r.by_email, byIp: r.by_ip, oldestByEmail: r.oldest_email, oldestByIp: r.oldest_ip };
}

export async function clearSignInFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE email = $1', [email]);
}
