import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, ensureAccount } from '../src/index.ts';
import { call } from './helpers.ts';
import { type ProxyFixture, startOrigin, startProxyFixture } from './proxy-fixture.ts';

// Zone ownership across accounts (issue 15, item 2): another account's zone under (or over) a zone
// takes no traffic until the account of that zone confirms it with a TXT record.
let f: ProxyFixture;
let attacker: { accountId: string; token: string; origin: Awaited<ReturnType<typeof startOrigin>> };

beforeAll(async () => {
  f = await startProxyFixture();
  const account = await ensureAccount(f.edge.deps, 'Mallory');
  const { secret } = await createApiToken(f.edge.deps, {
    accountId: account.id,
    name: 'attacker',
    zoneIds: ['*'],
    permissions: ['edit'],
  });
  attacker = { accountId: account.id, token: secret, origin: await startOrigin() };
}, 60_000);
afterAll(async () => {
  await attacker?.origin.close();
  await f?.close();
});

const asAttacker = (method: string, path: string, body?: unknown) =>
  call({ api: f.api, token: attacker.token }, method, path, body === undefined ? {} : { body });

/** Which origin answered a request for `host`: the victim's, the attacker's, or none (404). */
async function servedBy(host: string): Promise<'victim' | 'attacker' | number> {
  const before = { v: f.origin.seen.length, a: attacker.origin.seen.length };
  const res = await f.send(host, '/');
  if (res.status !== 200) return res.status;
  if (attacker.origin.seen.length > before.a) return 'attacker';
  if (f.origin.seen.length > before.v) return 'victim';
  return res.status;
}

describe('another account’s zone under a zone', () => {
  let victimZone: { id: string };
  let pending: Record<string, unknown>;

  beforeAll(async () => {
    victimZone = await f.zone('dp.audit.test', 'pro');
    const res = await asAttacker('POST', '/zones', {
      name: 'www.dp.audit.test',
      account: { id: attacker.accountId },
      origin: attacker.origin.url,
    });
    expect(res.status, res.text).toBe(200);
    pending = res.body.result as Record<string, unknown>;
  });

  it('is created pending, with the TXT record the other account must add', () => {
    expect(pending.status).toBe('pending');
    expect(pending.activated_on).toBeNull();
    expect(pending.verification_key).toMatch(/^[0-9a-f]{32}$/);
    expect(pending.ownership_verification).toEqual({
      type: 'txt',
      name: 'cloudflare-verify.www.dp.audit.test',
      value: pending.verification_key,
    });
  });

  it('never receives the traffic: www and a.www still reach the zone above, inside its WAF', async () => {
    expect(await servedBy('www.dp.audit.test')).toBe('victim');
    expect(await servedBy('a.www.dp.audit.test')).toBe('victim');
    expect(await servedBy('dp.audit.test')).toBe('victim');
  });

  it('each account’s zone list shows what it must: the attacker its pending zone, the victim only its own', async () => {
    const mine = (await asAttacker('GET', '/zones')).body.result as { name: string; status: string }[];
    expect(mine.map((z) => [z.name, z.status])).toEqual([['www.dp.audit.test', 'pending']]);
    const pendingOnly = (await asAttacker('GET', '/zones?status=pending')).body.result as unknown[];
    expect(pendingOnly).toHaveLength(1);
    expect((await asAttacker('GET', '/zones?status=active')).body.result).toEqual([]);
    const victims = (await f.call('GET', '/zones')).body.result as { name: string; status: string }[];
    expect(victims.map((z) => z.name)).not.toContain('www.dp.audit.test');
    expect(victims.find((z) => z.name === 'dp.audit.test')?.status).toBe('active');
  });

  it('an activation check without the record leaves it pending and says what is missing', async () => {
    const res = await asAttacker('PUT', `/zones/${pending.id}/activation_check`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('cloudflare-verify.www.dp.audit.test');
    expect(res.text).toContain('dp.audit.test');
    // a record the attacker adds in its own zone proves nothing
    const own = await asAttacker('POST', `/zones/${pending.id}/dns_records`, {
      type: 'TXT',
      name: 'cloudflare-verify.www.dp.audit.test',
      content: pending.verification_key,
    });
    expect(own.status, own.text).toBe(200);
    expect((await asAttacker('PUT', `/zones/${pending.id}/activation_check`)).status).toBe(400);
    // nor can it write into the victim's zone
    const intoVictim = await asAttacker('POST', `/zones/${victimZone.id}/dns_records`, {
      type: 'TXT',
      name: 'cloudflare-verify.www.dp.audit.test',
      content: pending.verification_key,
    });
    expect(intoVictim.status).toBe(404); // another account's zone is not even visible
    expect(await servedBy('www.dp.audit.test')).toBe('victim');
  });

  it('a wrong key in the victim’s record does not verify it', async () => {
    const wrong = await f.call('POST', `/zones/${victimZone.id}/dns_records`, {
      type: 'TXT',
      name: 'cloudflare-verify.www',
      content: 'not-the-key',
    });
    expect(wrong.status, wrong.text).toBe(200);
    expect((wrong.body.result as { name: string }).name).toBe('cloudflare-verify.www.dp.audit.test');
    expect((await asAttacker('PUT', `/zones/${pending.id}/activation_check`)).status).toBe(400);
  });

  it('once the victim’s account adds the record, the check activates the zone and it takes its traffic', async () => {
    const ok = await f.call('POST', `/zones/${victimZone.id}/dns_records`, {
      type: 'TXT',
      name: 'cloudflare-verify.www.dp.audit.test',
      content: pending.verification_key,
    });
    expect(ok.status, ok.text).toBe(200);
    await f.changed(String(pending.id), async () => {
      const res = await asAttacker('PUT', `/zones/${pending.id}/activation_check`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result).toEqual({ id: pending.id });
    });
    const zone = (await asAttacker('GET', `/zones/${pending.id}`)).body.result as Record<string, unknown>;
    expect(zone).toMatchObject({ status: 'active', verification_key: null, ownership_verification: null });
    expect(await servedBy('www.dp.audit.test')).toBe('attacker');
    expect(await servedBy('a.www.dp.audit.test')).toBe('attacker');
    expect(await servedBy('dp.audit.test')).toBe('victim');
  });
});

describe('the other way round, and within one account', () => {
  it('another account’s zone over a zone is pending too, and takes nothing of the tree', async () => {
    await f.zone('shop.tree.test', 'free');
    const res = await asAttacker('POST', '/zones', {
      name: 'tree.test',
      account: { id: attacker.accountId },
      origin: attacker.origin.url,
    });
    expect(res.status, res.text).toBe(200);
    expect((res.body.result as { status: string }).status).toBe('pending');
    expect(await servedBy('tree.test')).toBe(404);
    expect(await servedBy('other.tree.test')).toBe(404);
    expect(await servedBy('shop.tree.test')).toBe('victim');
  });

  it('a subdomain zone of the same account is active at once', async () => {
    await f.zone('own.audit.test', 'pro');
    const res = await f.call('POST', '/zones', { name: 'api.own.audit.test', account: { id: f.accountId } });
    expect(res.status, res.text).toBe(200);
    expect((res.body.result as { status: string }).status).toBe('active');
  });

  it('an unrelated name of another account is active at once', async () => {
    const res = await asAttacker('POST', '/zones', {
      name: 'mallory.test',
      account: { id: attacker.accountId },
    });
    expect((res.body.result as { status: string }).status).toBe('active');
  });

  it('refuses DNS records outside the zone and types other than TXT', async () => {
    const zone = await f.zone('dns.audit.test', 'free');
    const other = await f.call('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: 'www',
      content: '192.0.2.1',
    });
    expect(other.status).toBe(400);
    expect(other.text).toContain('/type');
    const outside = await f.call('POST', `/zones/${zone.id}/dns_records`, {
      type: 'TXT',
      name: 'bad name!',
      content: 'x',
    });
    expect(outside.status).toBe(400);
    expect(outside.text).toContain('/name');
  });
});

describe('two accounts creating overlapping zones at the same time', () => {
  it('cannot both end up active', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([
        f.call('POST', '/zones', { name: `race${round}.audit.test`, account: { id: f.accountId } }),
        asAttacker('POST', '/zones', {
          name: `www.race${round}.audit.test`,
          account: { id: attacker.accountId },
        }),
      ]);
      expect(a.status, a.text).toBe(200);
      expect(b.status, b.text).toBe(200);
      const statuses = [a, b].map((r) => (r.body.result as { status: string }).status).sort();
      expect(statuses).toEqual(['active', 'pending']);
    }
  });
});
