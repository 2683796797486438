import type { Queryable } from '@cairn/kit';

export interface Account {
  id: string;
  name: string;
  createdAt: Date;
}

interface Row {
  id: string;
  name: string;
  created_at: Date;
}

const toAccount = (r: Row): Account => ({ id: r.id, name: r.name, createdAt: r.created_at });

export async function insertAccount(db: Queryable, account: Account): Promise<void> {
  await db.query(
    'INSERT INTO edge_accounts (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
    [account.id, account.name, account.createdAt],
  );
}

export async function findAccount(db: Queryable, idOrName: string): Promise<Account | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM edge_accounts WHERE id = $1 OR name = $1', [idOrName]);
  return rows[0] && toAccount(rows[0]);
}

export async function listAccounts(db: Queryable): Promise<Account[]> {
  const { rows } = await db.query<Row>('SELECT * FROM edge_accounts ORDER BY name');
  return rows.map(toAccount);
}
