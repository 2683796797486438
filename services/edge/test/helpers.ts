import { createFakeClock, type FakeClock } from '@cairn/kit';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import {
  createApiToken,
  createEdge,
  createZone,
  type Edge,
  edgeMigrations,
  ensureAccount,
  type PlanName,
  type Zone,
} from '../src/index.ts';

export interface EdgeFixture {
  deps: TestDeps;
  clock: FakeClock;
  edge: Edge;
  baseUrl: string;
  /** `${baseUrl}/client/v4` */
  api: string;
  accountId: string;
  zones: Record<PlanName, Zone>;
  /** Every permission on every zone of the account. */
  token: string;
  makeToken(zoneIds: string[], permissions: string[]): Promise<string>;
  close(): Promise<void>;
}

/** The edge service on a fresh database, one zone per plan and an all-powerful token. */
export async function startEdge(env: Record<string, string> = {}): Promise<EdgeFixture> {
  const clock = createFakeClock();
  const deps = await createTestDeps(edgeMigrations, { clock, env });
  const edge = createEdge(deps, { crsDir: env.CAIRN_CRS_DIR ?? '/usr/share/modsecurity-crs' });
  const server = await serveOnLoopback(deps, [edge.module]);
  const account = await ensureAccount(edge.deps, 'Acme');
  const zones = {} as Record<PlanName, Zone>;
  for (const plan of ['free', 'pro', 'business', 'enterprise'] as const) {
    zones[plan] = await createZone(edge.deps, { accountId: account.id, name: `${plan}.example.com`, plan });
  }
  const makeToken = async (zoneIds: string[], permissions: string[]) =>
    (await createApiToken(edge.deps, { accountId: account.id, name: 'test', zoneIds, permissions })).secret;
  return {
    deps,
    clock,
    edge,
    baseUrl: server.baseUrl,
    api: `${server.baseUrl}/client/v4`,
    accountId: account.id,
    zones,
    token: await makeToken(['*'], ['edit']),
    makeToken,
    async close() {
      await server.close();
      await deps.db.close();
    },
  };
}

export interface Answer {
  status: number;
  body: {
    result: unknown;
    success: boolean;
    errors: { code: number; message: string; source?: { pointer?: string; parameter?: string } }[];
    messages: unknown[];
    result_info?: Record<string, unknown>;
  };
  text: string;
}

/** One edge API call with a JSON body (raw text when `raw`), answered as status + parsed envelope. */
export async function call(
  f: Pick<EdgeFixture, 'api' | 'token'>,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? f.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${f.api}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: Answer['body'];
  try {
    parsed = text === '' ? ({} as Answer['body']) : JSON.parse(text);
  } catch {
    parsed = { result: text, success: false, errors: [], messages: [] };
  }
  return { status: response.status, body: parsed, text };
}
