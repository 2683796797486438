import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import { EDGE_RULESET, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// URL normalisation at the edge (issue 15, item 3): the rules see the normalised path, raw.* the
// path as received, and the origin gets what the zone's url_normalization setting says. Requests are
// written as raw request lines on a socket, so no client library tidies the path first.
let f: ProxyFixture;

beforeAll(async () => {
  f = await startProxyFixture();
}, 60_000);
afterAll(() => f?.close());

/** Sends `GET <target>` as written and answers the status code and the body. */
function rawGet(host: string, target: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(f.proxy.address);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: cairn-test/1.0\r\nConnection: close\r\n\r\n`,
      'latin1',
    );
  });
}

async function deploy(zone: Zone, phase: string, rules: Record<string, unknown>[]) {
  await f.changed(zone.id, async () => {
    const res = await f.call('PUT', `/zones/${zone.id}/rulesets/phases/${phase}/entrypoint`, { rules });
    expect(res.status, res.text).toBe(200);
  });
}

async function setNormalization(zone: Zone, body: Record<string, unknown>) {
  await f.changed(zone.id, async () => {
    const res = await f.call('PUT', `/zones/${zone.id}/url_normalization`, body);
    expect(res.status, res.text).toBe(200);
  });
}

const block = (expression: string) => ({ action: 'block', expression });
/** Sends `target` and answers the URL the origin received. */
async function originSaw(host: string, target: string): Promise<string> {
  expect((await rawGet(host, target)).status).toBe(200);
  return f.origin.seen.at(-1)?.url ?? '';
}

describe('a custom rule on a path', () => {
  let zone: Zone;
  beforeAll(async () => {
    zone = await f.zone('norm.example.com', 'free');
    await deploy(zone, 'http_request_firewall_custom', [block('http.request.uri.path eq "/secret.txt"')]);
  });

  it('blocks the encoded, doubled-slash and dot-segment forms of the path, by default', async () => {
    for (const target of [
      '/secret.txt',
      '/%73ecret.txt',
      '/%73%65cret%2Etxt',
      '//secret.txt',
      '/./secret.txt',
      '/a/../secret.txt',
      '/%2e/secret.txt',
      '/x/%2E%2E/secret.txt',
      '\\secret.txt'.replace('\\', '/\\'),
      '/secret.txt?x=/../',
    ]) {
      expect((await rawGet('norm.example.com', target)).status, target).toBe(403);
    }
    for (const target of ['/secret.txt2', '/%2Fsecret.txt', '/secret%2etxt/x', '/public/secret.txt']) {
      expect((await rawGet('norm.example.com', target)).status, target).toBe(200);
    }
  });

  it('sends the origin the URL as received with scope incoming (the default), normalised with scope both', async () => {
    expect((await f.call('GET', `/zones/${zone.id}/url_normalization`)).body.result).toEqual({
      type: 'cloudflare',
      scope: 'incoming',
    });
    expect(await originSaw('norm.example.com', '/%61b//c/./d?q=%61')).toBe('/%61b//c/./d?q=%61');
    await setNormalization(zone, { scope: 'both' });
    expect(await originSaw('norm.example.com', '/%61b//c/./d?q=%61')).toBe('/ab/c/d?q=%61');
    expect((await rawGet('norm.example.com', '/%73ecret.txt')).status).toBe(403);
  });

  it('rfc3986 keeps doubled slashes and encodes backslashes; scope none turns normalisation off', async () => {
    await setNormalization(zone, { type: 'rfc3986', scope: 'both' });
    expect((await rawGet('norm.example.com', '/%73ecret.txt')).status).toBe(403);
    expect((await rawGet('norm.example.com', '//secret.txt')).status).toBe(200);
    expect(await originSaw('norm.example.com', '/a\\b')).toBe('/a%5Cb');
    await setNormalization(zone, { scope: 'none' });
    expect((await rawGet('norm.example.com', '/%73ecret.txt')).status).toBe(200);
    expect((await rawGet('norm.example.com', '/secret.txt')).status).toBe(403);
    await f.changed(zone.id, async () => {
      const reset = await f.call('DELETE', `/zones/${zone.id}/url_normalization`);
      expect(reset.body.result).toEqual({ type: 'cloudflare', scope: 'incoming' });
    });
    expect((await rawGet('norm.example.com', '/%73ecret.txt')).status).toBe(403);
  });

  it('raw.http.request.uri.path sees the path as received', async () => {
    const other = await f.zone('raw.example.com', 'free');
    await deploy(other, 'http_request_firewall_custom', [
      block('raw.http.request.uri.path eq "/%73ecret.txt"'),
    ]);
    expect((await rawGet('raw.example.com', '/%73ecret.txt')).status).toBe(403);
    expect((await rawGet('raw.example.com', '/secret.txt')).status).toBe(200);
  });

  it('refuses a bad setting in the envelope, naming the field', async () => {
    const res = await f.call('PUT', `/zones/${zone.id}/url_normalization`, {
      type: 'strict',
      scope: 'incoming',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('/type');
    const extra = await f.call('PUT', `/zones/${zone.id}/url_normalization`, { scope: 'both', mode: 1 });
    expect(extra.status).toBe(400);
  });

  it('for any path p and any encoding or dot-segment variant of it, the rule on p decides alike', async () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,6}$/).filter((s) => s !== '..');
    const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);
    const variantArb = (p: string) =>
      fc
        .tuple(
          ...[...p].map((ch) =>
            ch === '/'
              ? fc.constantFrom('/', '//', '/./', '/zz/../', '/\\', '/%2e/', '/q/%2E%2e/')
              : fc.constantFrom(
                  ch,
                  `%${ch.charCodeAt(0).toString(16)}`,
                  `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
                ),
          ),
        )
        .map((parts) => parts.join(''));
    const probe = await f.zone('prop.example.com', 'free');
    await fc.assert(
      fc.asyncProperty(
        pathArb.chain((p) => fc.tuple(fc.constant(p), variantArb(p))),
        async ([p, sent]) => {
          await deploy(probe, 'http_request_firewall_custom', [
            block(`http.request.uri.path eq ${JSON.stringify(p)}`),
          ]);
          const plain = await rawGet('prop.example.com', p);
          const variant = await rawGet('prop.example.com', sent);
          expect(plain.status).toBe(403);
          expect(variant.status, `${sent} against ${p}`).toBe(plain.status);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('the managed signatures and the previous WAF see the same normalised path', () => {
  it('the Cairn Managed Ruleset blocks /%2eenv and /%2egit/config like /.env', async () => {
    const zone = await f.zone('managed-norm.example.com', 'enterprise', 'complete');
    await deploy(zone, 'http_request_firewall_managed', [
      { action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } },
    ]);
    for (const target of [
      '/.env',
      '/%2eenv',
      '/%2Eenv',
      '//.env',
      '/%2egit/config',
      '/a/../%2e%67it/config',
    ]) {
      expect((await rawGet('managed-norm.example.com', target)).status, target).toBe(403);
    }
    expect((await rawGet('managed-norm.example.com', '/environment')).status).toBe(200);
    // normalisation removes dot segments, but a traversal in the path as sent is still an attack
    for (const target of [
      '/static/../../../app/config.yml',
      '/a/%2e%2e/%2e%2e/b',
      '/x/..%2f..%2fetc/hosts',
    ]) {
      expect((await rawGet('managed-norm.example.com', target)).status, target).toBe(403);
    }
  });

  it('the previous WAF blocks them too', async () => {
    const zone = await f.zone('legacy-norm.example.com', 'pro');
    await f.changed(zone.id, async () => {
      expect((await f.call('PATCH', `/zones/${zone.id}/settings/waf`, { value: 'on' })).status).toBe(200);
    });
    for (const target of ['/.env', '/%2eenv', '/%2egit/config']) {
      expect((await rawGet('legacy-norm.example.com', target)).status, target).toBe(403);
    }
  });
});
