// The multi-host test (issue 19): four hosts in network namespaces on this machine — PostgreSQL, two
// `cairn serve`, HAProxy checking /readyz — under a bounded mixed load through the balancer. One Cairn host
// is killed (SIGKILL) and brought back, then both are restarted one at a time (SIGTERM). Run it with
// `npm run test:cluster` (root, iproute2, haproxy, PostgreSQL's server binaries); the normal test run skips it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { type CairnHost, startBalancer, startCairn, startPostgres, until } from './hosts.ts';
import { Ledger, type Phase } from './load.ts';
import { createNetwork, type Network, netnsAvailable } from './netns.ts';

const enabled = process.env.CAIRN_CLUSTER === '1';
const TTL_MS = 1000; // AUTH_CACHE_TTL_MS on every host: the documented bound for a revocation to reach them
const ZONE = 'shop.cluster.test';
const usersHeaders = (key: string) => ({
  authorization: `Bearer ${key}`,
  'x-users-api-version': '2025-06-17',
  accept: 'application/json',
});
const placesHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  'x-places-api-version': '2025-06-17',
  accept: 'application/json',
});

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error('cluster cleanup:', error);
    }
  }
});

describe.skipIf(!enabled)('several Cairn hosts on one PostgreSQL behind HAProxy', () => {
  it('loses no acknowledged write through a host killed and a rolling restart', async () => {
    if (!netnsAvailable())
      throw new Error('CAIRN_CLUSTER=1 needs network namespaces: run as root with iproute2');
    const dir = mkdtempSync(join(tmpdir(), 'cairn-cluster-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const network: Network = createNetwork(['db', 'a', 'b', 'lb']);
    cleanups.push(() => network.remove());

    // The database host.
    const postgres = await startPostgres(network, 'db', dir);
    const admin = new pg.Client({ connectionString: `${postgres.url}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE cairn');
    await admin.end();
    const databaseUrl = `${postgres.url}/cairn`;
    const db = new pg.Client({ connectionString: databaseUrl });

    // The zone's origin: this process, on the bridge's address.
    const origin: Server = createServer((req, res) => res.end(`origin ${req.url}`));
    await new Promise<void>((resolve) => origin.listen(0, network.gateway, resolve));
    cleanups.push(() => new Promise((resolve) => origin.close(resolve)));
    const originPort = (origin.address() as { port: number }).port;

    // The two Cairn hosts and the balancer.
    const serviceKey = `svk_${randomBytes(32).toString('base64url')}`;
    const { url: lbUrl, edgeUrl, balancer } = await startBalancer(network, 'lb', dir, ['a', 'b']);
    const env = {
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: lbUrl,
      CAIRN_DATA_DIR: join(dir, 'unused'),
      CAIRN_BOOTSTRAP_SERVICE_KEY: serviceKey,
      CAIRN_WORKERS: '1',
      PLACES_DEMO_COUNT: '2000',
      PLACES_RATE_LIMIT: '100000',
      AUTH_CACHE_TTL_MS: String(TTL_MS),
      // HAProxy marks a host down after 2 failed checks 300 ms apart: drain for well over that.
      SHUTDOWN_DRAIN_MS: '1500',
      SHUTDOWN_GRACE_MS: '15000',
    };
    const hosts: Record<string, CairnHost> = {};
    const killHost = (name: string) => {
      const h = hosts[name];
      if (h && h.proc.child.exitCode === null) h.proc.child.kill('SIGKILL');
    };
    cleanups.push(() => {
      killHost('a');
      killHost('b');
    });
    hosts.a = await startCairn(network, 'a', env);
    hosts.b = await startCairn(network, 'b', env);
    await balancer.waitFor('a', 'UP');
    await balancer.waitFor('b', 'UP');

    // A second organization, whose managed users vote; an edge zone in front of the origin, and its token.
    const cli = async (args: string[]) => {
      const out = await runCli([...args, '--json'], { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
      if (out.code !== 0) throw new Error(`cairn ${args.join(' ')}: ${out.stderr}`);
      return JSON.parse(out.stdout);
    };
    await cli(['orgs', 'create', '--name', 'Voters']);
    const [votersKey, zone] = await Promise.all([
      cli(['keys', 'create', '--org', 'Voters']).then((k: { key: string }) => k.key),
      cli([
        'edge',
        'zones',
        'create',
        '--name',
        ZONE,
        '--plan',
        'pro',
        '--origin',
        `http://${network.gateway}:${originPort}`,
      ]),
    ]);
    const edgeToken: string = (
      await cli(['edge', 'tokens', 'create', '--zone', ZONE, '--permissions', 'edit'])
    ).token;

    await db.connect();
    cleanups.push(() => db.end());
    const places = (
      await db.query<{ id: string; lat: number; lon: number }>(
        'SELECT fsq_place_id AS id, latitude AS lat, longitude AS lon FROM places ORDER BY fsq_place_id LIMIT 200',
      )
    ).rows;
    expect(places.length).toBeGreaterThan(50);

    const ledger = new Ledger();
    cleanups.push(() => ledger.close());
    const makeUser = async (key: string, name: string) => {
      const out = await ledger.send('setup', {
        method: 'POST',
        url: `${lbUrl}/users/managed-user/create?first_name=${name}`,
        headers: usersHeaders(key),
      });
      if (!out) throw new Error(`could not create ${name}: ${JSON.stringify(ledger.failures.slice(-1))}`);
      return JSON.parse(out.body) as { user_id: number; access_token: string };
    };
    const authors = await Promise.all([1, 2, 3, 4].map((i) => makeUser(serviceKey, `Author${i}`)));
    const voters = await Promise.all([1, 2, 3, 4].map((i) => makeUser(votersKey, `Voter${i}`)));

    // The load: 6 clients, each one call at a time, until the scenario is over.
    const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
    let seq = 0;
    let stopping = false;
    const editIds: string[] = [];
    const operations: [number, () => Promise<unknown>][] = [
      [
        15,
        async () => {
          const name = `Load${++seq}`;
          const out = await ledger.send(
            'user',
            {
              method: 'POST',
              url: `${lbUrl}/users/managed-user/create?first_name=${name}`,
              headers: usersHeaders(serviceKey),
            },
            () => ledger.users.attempts++,
          );
          if (out) ledger.users.acknowledged.add((JSON.parse(out.body) as { user_id: number }).user_id);
        },
      ],
      [
        30,
        async () => {
          const p = pick(places);
          const out = await ledger.send('search', {
            method: 'GET',
            url: `${lbUrl}/places/search?ll=${p.lat},${p.lon}&radius=20000&limit=5`,
            headers: placesHeaders(pick(authors).access_token),
          });
          if (out) ledger.searches++;
        },
      ],
      [
        15,
        async () => {
          const p = pick(places);
          const description = `cluster edit ${++seq}`;
          const out = await ledger.send(
            'edit',
            {
              method: 'POST',
              url: `${lbUrl}/places/${p.id}/suggest/edit?description=${encodeURIComponent(description)}`,
              headers: placesHeaders(pick(authors).access_token),
            },
            () => ledger.edits.attempts++,
          );
          if (out) {
            const id = (JSON.parse(out.body) as { suggested_edits: { id: string }[] }).suggested_edits[0]!.id;
            ledger.edits.acknowledged.add(id);
            editIds.push(id);
          }
        },
      ],
      [
        20,
        async () => {
          if (editIds.length === 0) return;
          const edit = pick(editIds);
          const voter = pick(voters);
          const value = pick(['approve', 'reject']);
          const pair = `${edit}|user:${voter.user_id}`;
          ledger.votes.attempted.add(pair);
          const out = await ledger.send('vote', {
            method: 'POST',
            url: `${lbUrl}/places/suggest/${edit}/vote?vote=${value}`,
            headers: placesHeaders(voter.access_token),
          });
          if (out) ledger.votes.acknowledged.set(pair, value);
        },
      ],
      [
        10,
        async () => {
          const n = ++seq;
          const out = await ledger.send(
            'edge-api',
            {
              method: 'POST',
              url: `${lbUrl}/client/v4/zones/${zone.id}/dns_records`,
              headers: { authorization: `Bearer ${edgeToken}`, 'content-type': 'application/json' },
              body: JSON.stringify({ type: 'TXT', name: `_load${n}`, content: `cluster ${n}` }),
            },
            () => ledger.dns.attempts++,
          );
          if (out)
            ledger.dns.acknowledged.add((JSON.parse(out.body) as { result: { id: string } }).result.id);
        },
      ],
      [
        10,
        async () => {
          const n = ++seq;
          const out = await ledger.send('proxy', {
            method: 'GET',
            url: `${edgeUrl}/hello?n=${n}`,
            headers: { host: ZONE },
          });
          if (out?.body === `origin /hello?n=${n}`) ledger.proxied++;
          else if (out) throw new Error(`the proxy answered ${out.body.slice(0, 200)} for /hello?n=${n}`);
        },
      ],
    ];
    const total = operations.reduce((sum, [weight]) => sum + weight, 0);
    // A client that meets an answer it cannot read records it and goes on (asserted empty at the end).
    const clientErrors: string[] = [];
    const client = async () => {
      while (!stopping) {
        let r = Math.random() * total;
        const op = operations.find(([weight]) => (r -= weight) < 0) ?? operations[0]!;
        await op[1]().catch((error: Error) => clientErrors.push(`${ledger.phase}: ${error.message}`));
      }
    };
    const clients = Array.from({ length: 6 }, client);
    const ackedBy = (n: number) => {
      const target = ledger.acknowledged + n;
      return until(`${n} more acknowledged requests`, 120_000, async () =>
        ledger.acknowledged >= target ? true : undefined,
      );
    };
    const phase = (p: Phase) => {
      ledger.phase = p;
    };

    try {
      await ackedBy(80);

      // Failover: SIGKILL host a under load, bring it back.
      const scurA = await balancer.sessions('a');
      const inFlightAtKill = ledger.inFlight;
      phase('failover');
      const killedAt = Date.now();
      hosts.a!.proc.child.kill('SIGKILL');
      await hosts.a!.proc.exited;
      await balancer.waitFor('a', 'DOWN');
      const downAfterMs = Date.now() - killedAt;
      await ackedBy(40);
      hosts.a = await startCairn(network, 'a', env);
      await balancer.waitFor('a', 'UP');
      const failoverFailures = ledger.failures.length;
      const failoverRetried = ledger.retried;
      phase('recovered');
      await ackedBy(40);

      // Rolling restart: SIGTERM one host at a time, wait for it to be back in the balancer.
      phase('rolling');
      const stopCodes: (number | null)[] = [];
      for (const name of ['a', 'b']) {
        hosts[name]!.proc.child.kill('SIGTERM');
        stopCodes.push(await hosts[name]!.proc.exited);
        hosts[name] = await startCairn(network, name, env);
        await balancer.waitFor(name, 'UP');
        await ackedBy(30);
      }

      // A revocation made on one host is refused on the other within AUTH_CACHE_TTL_MS.
      phase('settle');
      const direct = async (url: string, method: 'GET' | 'POST', headers: Record<string, string>) =>
        fetch(url, { method, headers });
      const created = await direct(
        `${hosts.a!.url}/users/managed-user/create?first_name=Revoked`,
        'POST',
        usersHeaders(serviceKey),
      );
      expect(created.status).toBe(200);
      const victim = (await created.json()) as { user_id: number; access_token: string };
      const p = places[0]!;
      const searchOnB = () =>
        direct(
          `${hosts.b!.url}/places/search?ll=${p.lat},${p.lon}&limit=1`,
          'GET',
          placesHeaders(victim.access_token),
        ).then((r) => r.status);
      expect(await searchOnB()).toBe(200); // now resolved and cached on b
      const refreshed = await direct(
        `${hosts.a!.url}/users/managed-user/refresh-token?target_user_id=${victim.user_id}`,
        'POST',
        usersHeaders(serviceKey),
      );
      expect(refreshed.status).toBe(200);
      const revokedAt = Date.now();
      let refusedAfterMs: number | undefined;
      while (Date.now() - revokedAt <= TTL_MS) {
        if ((await searchOnB()) === 401) {
          refusedAfterMs = Date.now() - revokedAt;
          break;
        }
      }
      // Whatever the notice did, a request sent once the TTL has passed since the revocation is refused.
      expect(await searchOnB()).toBe(401);

      stopping = true;
      await Promise.all(clients);

      // What the database holds against what the clients saw acknowledged.
      const users = new Set(
        (
          await db.query<{ id: string }>(
            `SELECT id FROM users WHERE kind = 'managed' AND first_name LIKE 'Load%'`,
          )
        ).rows.map((r) => Number(r.id)),
      );
      const authorIds = authors.map((a) => `user:${a.user_id}`);
      const edits = new Set(
        (
          await db.query<{ id: string }>('SELECT id FROM places_edits WHERE contributor = ANY($1)', [
            authorIds,
          ])
        ).rows.map((r) => r.id),
      );
      const voteRows = (
        await db.query<{ edit_id: string; contributor: string; vote: string }>(
          'SELECT edit_id, contributor, vote FROM places_edit_votes',
        )
      ).rows;
      const dns = new Set(
        (
          await db.query<{ id: string }>(`SELECT id FROM edge_dns_records WHERE name LIKE '\\_load%'`)
        ).rows.map((r) => r.id.trim()),
      );
      const resolved = (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM places_edits WHERE status <> 'pending'`)
      ).rows[0]!.n;

      const missing = (acked: Iterable<string | number>, stored: Set<string | number>) =>
        [...acked].filter((x) => !stored.has(x));
      const votePairs = voteRows.map((v) => `${v.edit_id}|${v.contributor}`);
      const byEdit = new Map<string, number>();
      for (const v of voteRows) byEdit.set(v.edit_id, (byEdit.get(v.edit_id) ?? 0) + 1);
      // The API's own tally of each voted edit, read through the balancer.
      const tallied = new Map<string, number>();
      const voted = [...byEdit.keys()];
      for (let i = 0; i < voted.length; i += 50) {
        const ids = voted.slice(i, i + 50).join(',');
        const res = await fetch(`${lbUrl}/places/suggest/status?suggested_edit_ids=${ids}&limit=50`, {
          headers: placesHeaders(authors[0]!.access_token),
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as {
          suggested_edits: { id: string; votes: { approve: number; reject: number; skip: number } }[];
        };
        for (const e of body.suggested_edits)
          tallied.set(e.id, e.votes.approve + e.votes.reject + e.votes.skip);
      }

      const report = {
        load: `${ledger.sent} requests (${ledger.acknowledged} acknowledged): ${users.size} managed users, ${edits.size} edits, ${voteRows.length} votes, ${dns.size} DNS records, ${ledger.searches} searches, ${ledger.proxied} proxied`,
        failover: {
          in_flight_at_kill: { clients: inFlightAtKill, haproxy_sessions_on_a: scurA },
          marked_down_after_ms: downAfterMs,
          failed_attempts: failoverFailures,
          retried: failoverRetried,
          failed_after_retries: ledger.gaveUp,
          errors: [
            ...new Set(
              ledger.failures
                .filter((f) => f.phase === 'failover')
                .map((f) => `${f.op}: ${f.what.slice(0, 80)}`),
            ),
          ],
        },
        rolling_restart: {
          exit_codes: stopCodes,
          failures: ledger.failures.filter((f) => f.phase === 'rolling').length,
        },
        revocation: { ttl_ms: TTL_MS, refused_on_other_host_after_ms: refusedAfterMs ?? `> ${TTL_MS}` },
        writes: {
          users: {
            acknowledged: ledger.users.acknowledged.size,
            attempts: ledger.users.attempts,
            stored: users.size,
          },
          edits: {
            acknowledged: ledger.edits.acknowledged.size,
            attempts: ledger.edits.attempts,
            stored: edits.size,
          },
          votes: {
            acknowledged_pairs: ledger.votes.acknowledged.size,
            attempted_pairs: ledger.votes.attempted.size,
            stored: voteRows.length,
          },
          dns: {
            acknowledged: ledger.dns.acknowledged.size,
            attempts: ledger.dns.attempts,
            stored: dns.size,
          },
        },
      };
      console.log(`cluster test:\n${JSON.stringify(report, null, 2)}`);

      expect(clientErrors).toEqual([]);
      // No acknowledged write is lost, and nothing is stored that no client sent.
      expect(missing([...ledger.users.acknowledged], users)).toEqual([]);
      expect(users.size).toBeLessThanOrEqual(ledger.users.attempts);
      expect(missing(ledger.edits.acknowledged, edits)).toEqual([]);
      expect(edits.size).toBeLessThanOrEqual(ledger.edits.attempts);
      expect(missing(ledger.dns.acknowledged, dns)).toEqual([]);
      expect(dns.size).toBeLessThanOrEqual(ledger.dns.attempts);
      expect(missing(ledger.votes.acknowledged.keys(), new Set(votePairs))).toEqual([]);
      expect(votePairs.filter((pair) => !ledger.votes.attempted.has(pair))).toEqual([]);
      // No vote counted twice: one row per voter and edit, and the API's tally counts exactly those rows.
      expect(new Set(votePairs).size).toBe(votePairs.length);
      expect([...byEdit].filter(([id, n]) => tallied.get(id) !== n)).toEqual([]);
      // One party (Voters) approves: no edit reaches the quorum, so every vote was taken while pending.
      expect(resolved).toBe(0);
      // The failover gives only errors a client may retry, and every retried request got through.
      expect(ledger.failures.filter((f) => !f.retryable)).toEqual([]);
      expect(ledger.failures.filter((f) => f.phase !== 'failover')).toEqual([]);
      expect(ledger.gaveUp).toBe(0);
      // The rolling restart: each host stopped cleanly, and no request failed (no 5xx, no reset).
      expect(stopCodes).toEqual([0, 0]);
    } finally {
      stopping = true;
      await Promise.allSettled(clients);
    }
  }, 900_000);
});
