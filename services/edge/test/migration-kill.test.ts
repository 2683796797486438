import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type EdgeFixture, startEdge } from './helpers.ts';
import {
  freshZone,
  lockWaiters,
  migrationPaths,
  storeSnapshot,
  upgradeWithConfig,
} from './migration-helpers.ts';

const CHILD = fileURLToPath(new URL('./migration-kill-child.ts', import.meta.url));
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);

let f: EdgeFixture;
beforeAll(async () => {
  if (onPostgres) f = await startEdge();
});
afterAll(async () => {
  await f?.close();
});

/** Starts the child upgrade; resolves with it once its output matches `until`. */
function runChild(args: string[], until: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const reached = new Promise<ChildProcess>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`child exited (${code}) before ${until}: ${output}`)));
  });
  return { reached, exited, output: () => output };
}

describe.skipIf(!onPostgres)(
  'a process killed in the middle of the upgrade (PostgreSQL only; skipped on PGlite, which is embedded in one process: no second process can hold a transaction on it — set DATABASE_URL)',
  () => {
    it('killed inside the transaction, after every write: the zone is untouched, and upgradable', async () => {
      const z = await freshZone(f, 'business', 'kill');
      await call(f, 'PATCH', `/zones/${z.id}/settings/waf`, { body: { value: 'on' } });
      const body = (await call(f, 'GET', `${migrationPaths(z.id).config}?phase_two=1`)).body.result;
      const before = await storeSnapshot(f, z.id);
      const url = (f.deps.db as { url?: string }).url!;
      const run = runChild([url, z.id, JSON.stringify(body)], /waf-upgrade: paused/);
      const child = await run.reached;
      // Inside its transaction the child has written the entry point and the state; nobody sees it yet.
      expect(await storeSnapshot(f, z.id)).toEqual(before);
      const status = await call(f, 'GET', migrationPaths(z.id).status);
      expect((status.body.result as { migration_state: string }).migration_state).toBe('start');
      child.kill('SIGKILL');
      expect(await run.exited).toBeNull();
      expect(await storeSnapshot(f, z.id)).toEqual(before);
      // The lock died with the connection: the upgrade goes through now, once.
      const done = await upgradeWithConfig(f, z.id, 'pending', { body });
      expect(done.status, done.text).toBe(200);
      const history = (await call(f, 'GET', migrationPaths(z.id).history)).body.result as {
        actor: { name: string };
      }[];
      expect(history.map((e) => e.actor.name)).toEqual(['test']);
    }, 60_000);

    it('a concurrent upgrade waits on the paused one and is refused once it commits', async () => {
      const z = await freshZone(f, 'pro', 'kill');
      const body = { rules: [] };
      const url = (f.deps.db as { url?: string }).url!;
      const run = runChild([url, z.id, JSON.stringify(body)], /waf-upgrade: paused/);
      const child = await run.reached;
      let answered = false;
      const second = upgradeWithConfig(f, z.id, 'pending', { body }).finally(() => {
        answered = true;
      });
      // The second upgrade waits on the zone lock the paused child holds, and gets no answer yet.
      await lockWaiters(url, 1, second);
      expect(answered).toBe(false);
      child.stdin?.write('commit\n');
      const refused = await second;
      expect(refused.status, refused.text).toBe(409);
      expect(await run.exited).toBe(0);
      expect(run.output()).toMatch(/waf-upgrade: committed/);
      const state = await storeSnapshot(f, z.id);
      expect((state.zone[0] as { waf_migration_state: string }).waf_migration_state).toBe('complete');
      expect(state.events).toHaveLength(1);
      expect(state.rulesets).toHaveLength(1);
    }, 60_000);
  },
);
