import type { Queryable } from '@cairn/kit';

export interface AccountRecord {
  userId: number;
  email: string;
  displayName: string;
  passwordHash: string;
  createdAt: Date;
}

interface Row {
  user_id: number;
  email: string;
  display_name: string;
  password_hash: string;
  created_at: Date;
}

const toRecord = (r: Row): AccountRecord => ({
  userId: r.user_id,
  email: r.email,
  displayName: r.display_name,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
});

/** Creates the user row and its account; returns the user id, or undefined when the email is taken. */
export async function insertAccount(
  db: Queryable,
  account: Omit<AccountRecord, 'userId'>,
): Promise<number | undefined> {
  const taken = await db.query('SELECT 1 FROM accounts WHERE email = $1', [account.email]);
  if (taken.rowCount > 0) return undefined;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO users (kind, first_name, created_at) VALUES ('account', $1, $2) RETURNING id`,
    [account.displayName, account.createdAt],
  );
  const userId = rows[0]!.id;
  try {
    await db.query(
      'INSERT INTO accounts (user_id, email, display_name, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)',
      [userId, account.email, account.displayName, account.passwordHash, account.createdAt],
    );
  } catch (error) {
    // Two sign-ups with one email at the same moment: the unique index decides (the transaction rolls back).
    if ((error as { code?: string }).code === '23505') return undefined;
    throw error;
  }
  return userId;
}

export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM accounts WHERE email = $1', [email]);
  return rows[0] && toRecord(rows[0]);
}

export async function findAccountByUserId(db: Queryable, userId: number): Promise<AccountRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM accounts WHERE user_id = $1', [userId]);
  return rows[0] && toRecord(rows[0]);
}
