import { get } from 'node:http';
import { createTestDb, testDatabaseUrl } from '@cairn/kit';
import { tempDirs } from '@cairn/kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from './run-cli.ts';

// cairn serve on every core: on PostgreSQL, CAIRN_WORKERS processes share the API and proxy ports, a zone
// change reaches each through NOTIFY, a worker that dies is replaced, SIGTERM stops them all gracefully.
// On the embedded database one process serves, and says so.

const dirs = tempDirs('cairn-workers');
/** Servers started here: killed at the end even when a test times out mid-way (its finally never runs). */
const started: { kill(signal: NodeJS.Signals): boolean }[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
  dirs.removeAll();
});

interface Answer {
  status: number;
  body: string;
}

/** A GET on a connection of its own (the primary hands each new connection to the next worker). */
function fresh(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    // A connection handed to a worker as it is killed gets no answer: fail it, the caller asks again.
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url} in 10 s`)));
  });
}

/** Polls `check` until it returns a value, or fails with `what` (and its last error) after `ms`. */
async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch((error: unknown) => {
      if (Date.now() > deadline) throw error;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setImmediate(r));
  }
}

const workerPid = async (api: string) =>
  (JSON.parse((await fresh(`${api}/readyz`)).body) as { worker?: { pid: number } }).worker?.pid;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const ATTACK = '/places/search?query=%3Cscript%3Ealert(1)%3C%2Fscript%3E';
const DEMO = { host: 'demo.cairn.localhost' };

describe.skipIf(!testDatabaseUrl())('cairn serve with CAIRN_WORKERS on PostgreSQL', () => {
  it('two workers serve both ports, a zone change reaches both within a second, a dead worker is replaced, SIGTERM stops all', async () => {
    const db = await createTestDb([]);
    const env = { DATABASE_URL: db.url, CAIRN_WORKERS: '2', PLACES_DEMO_COUNT: '0', LOG_LEVEL: 'info' };
    const server = await startServe(env);
    started.push(server.child);
    try {
      expect(server.output()).toMatch(/Serving on 2 worker processes/);
      const proxy = /proxy .* is listening on (http:\/\/[\d.]+:\d+)/.exec(server.output())?.[1] as string;
      expect(proxy, server.output()).toBeDefined();
      const api = server.baseUrl;

      // Both workers answer the API: new connections go to one, then the other.
      const pids = new Set<number>();
      await until('two workers answering /readyz', 30_000, async () => {
        const pid = await workerPid(api);
        if (pid) pids.add(pid);
        return pids.size >= 2 ? true : undefined;
      });
      expect(pids.size).toBe(2);
      expect(pids.has(server.child.pid as number)).toBe(false);

      // The demo zone (the previous WAF) blocks an attack in every worker; compile its plan in each.
      for (let i = 0; i < 6; i++) expect((await fresh(`${proxy}${ATTACK}`, DEMO)).status).toBe(403);

      // Pause it through the API: every worker serves it without security within a second.
      const token = await runCli(
        ['edge', 'tokens', 'create', '--zone', DEMO.host, '--permissions', 'edit', '--json'],
        env,
      );
      expect(token.code, token.stderr).toBe(0);
      const { token: secret } = JSON.parse(token.stdout) as { token: string };
      const zones = (await (
        await fetch(`${api}/client/v4/zones?name=${DEMO.host}`, {
          headers: { authorization: `Bearer ${secret}` },
        })
      ).json()) as { result: { id: string }[] };
      const zoneId = zones.result[0]?.id as string;
      const paused = await fetch(`${api}/client/v4/zones/${zoneId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ paused: true }),
      });
      expect(paused.status).toBe(200);
      // Six requests in a row on new connections (three per worker) pass the paused zone.
      let passed = 0;
      await until('the pause in both workers', 1000, async () => {
        const status = (await fresh(`${proxy}${ATTACK}`, DEMO)).status;
        passed = status === 403 ? 0 : passed + 1;
        return passed >= 6 ? true : undefined;
      });

      // A worker killed outright is replaced; the other serves meanwhile.
      const [victim] = [...pids];
      process.kill(victim as number, 'SIGKILL');
      const replacement = await until('a new worker', 60_000, async () => {
        const pid = await workerPid(api);
        return pid && !pids.has(pid) ? pid : undefined;
      });
      expect(alive(victim as number)).toBe(false);
      expect(server.output()).toMatch(/worker exited unasked; starting another/);

      // SIGTERM: every worker drains and stops, the primary exits 0.
      const workers = [...pids, replacement].filter((p) => p !== victim);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      for (const pid of workers) expect(alive(pid)).toBe(false);
    } finally {
      server.child.kill('SIGKILL');
      await db.close();
    }
  }, 300_000);
});

describe('cairn serve with CAIRN_WORKERS on the embedded database', () => {
  it('serves on one process, and says CAIRN_WORKERS is ignored', async () => {
    const server = await startServe({
      CAIRN_DATA_DIR: dirs.make(),
      DATABASE_URL: '',
      PLACES_DEMO_COUNT: '0',
      CAIRN_WORKERS: '2',
    });
    started.push(server.child);
    try {
      expect(server.output()).toMatch(
        /CAIRN_WORKERS is ignored on the embedded database: one process holds it/,
      );
      const ready = JSON.parse((await fresh(`${server.baseUrl}/readyz`)).body) as Record<string, unknown>;
      expect(ready.status).toBe('ready');
      expect(ready.worker).toBeUndefined();
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 300_000);
});
