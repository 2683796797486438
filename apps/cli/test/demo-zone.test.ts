import { request } from 'node:http';
import { tempDirs } from '@cairn/kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe } from './run-cli.ts';

const dirs = tempDirs('cairn-demo-zone');
afterAll(() => dirs.removeAll());

/** A printed `curl` line as a fetch: its URL and -H headers. */
function curlOf(line: string): { url: string; headers: Record<string, string> } {
  const url = /'(http:\/\/[^']+)'\s*$/.exec(line)?.[1];
  if (!url) throw new Error(`no URL in ${line}`);
  const headers: Record<string, string> = {};
  for (const m of line.matchAll(/-H '([^:]+): ([^']*)'/g)) headers[m[1]!.toLowerCase()] = m[2]!;
  return { url, headers };
}

/** What curl does with the line (fetch cannot set Host). */
function curl(c: { url: string; headers: Record<string, string> }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
    (resolve, reject) => {
      const req = request(c.url, { headers: c.headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

// Issue 18, point 2: the first start creates demo.cairn.localhost on the previous WAF in front of the
// places API, and the printed lines work as printed in a fresh data directory.
describe('the demo zone on first start', () => {
  it('prints a curl that passes, one that is blocked, a dashboard login and how to upgrade; each works', async () => {
    const env = { CAIRN_DATA_DIR: dirs.make(), DATABASE_URL: '', PLACES_DEMO_COUNT: '200' };
    const server = await startServe(env);
    try {
      const out = server.output();
      const lines = out.split('\n');
      const curls = lines.filter((l) => l.trim().startsWith('curl ') && l.includes('demo.cairn.localhost'));
      expect(curls, out).toHaveLength(2);

      const pass = curlOf(curls[0]!);
      const passed = await curl(pass);
      expect(passed.status, passed.text).toBe(200);
      expect(Array.isArray((JSON.parse(passed.text) as { results: unknown[] }).results)).toBe(true);

      const attack = curlOf(curls[1]!);
      const blocked = await curl(attack);
      expect(blocked.status, blocked.text).toBe(403);
      expect(blocked.headers['cf-mitigated']).toBe('block');

      const login = /Its dashboard: (\S+) — sign in as (\S+) with the password (\S+) /.exec(out);
      expect(login, out).not.toBeNull();
      const [, dashboard, email, password] = login!;
      const base = dashboard!.replace(/\/dashboard\/$/, '');
      const signIn = await fetch(`${server.baseUrl}/dashboard/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(signIn.status, await signIn.clone().text()).toBe(200);
      expect(base).toMatch(/^http/);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const { csrf } = ((await signIn.json()) as { result: { csrf: string } }).result;

      // The upgrade line, followed with the dashboard's session: GET the config, PUT it back.
      const upgrade = lines.find((l) => l.startsWith('To upgrade it'))!;
      const put = /PUT (\S+) with the body of GET (\S+)$/.exec(upgrade);
      expect(put, upgrade).not.toBeNull();
      const session = { cookie, 'x-cairn-dashboard': csrf, 'content-type': 'application/json' };
      const config = await fetch(`${server.baseUrl}${put![2]}`, { headers: session });
      expect(config.status).toBe(200);
      const body = ((await config.json()) as { result: unknown }).result;
      const done = await fetch(`${server.baseUrl}${put![1]}`, {
        method: 'PUT',
        headers: session,
        body: JSON.stringify(body),
      });
      expect(done.status, await done.clone().text()).toBe(200);
      expect((await curl(attack)).status).toBe(403);
      expect((await curl(pass)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    // A second start makes nothing new and prints no password.
    const again = await startServe(env);
    try {
      expect(again.output()).not.toContain('demo.cairn.localhost (Pro');
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  }, 300_000);
});
