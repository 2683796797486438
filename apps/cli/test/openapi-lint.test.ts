import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { edgeMigrations } from '@cairn/edge';
import { identityMigrations } from '@cairn/identity';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { placesMigrations } from '@cairn/places';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices, type Services } from '../src/runtime.ts';

/**
 * The served OpenAPI documents as an integrator's tooling reads them: Redocly CLI's recommended ruleset
 * (redocly.yaml at the repository's root) finds no error and no warning in /openapi.json nor in any
 * service's own document, and every operation has what a generated client needs — a unique name, its
 * security, its error answers.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const REDOCLY = fileURLToPath(import.meta.resolve('@redocly/cli/bin/cli.js'));
const SERVICES = ['identity', 'places', 'placemakers', 'edge'];
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
}
interface OpenApi {
  info: { license?: { identifier?: string }; description?: string };
  tags?: { name: string; externalDocs?: { url: string } }[];
  externalDocs?: { url: string };
  servers: { url: string }[];
  components: { securitySchemes?: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

let deps: TestDeps;
let services: Services;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let dir: string;
const documents = new Map<string, OpenApi>();

beforeAll(async () => {
  deps = await createTestDeps([...identityMigrations, ...placesMigrations, ...edgeMigrations]);
  services = composeServices(deps, { PLACES_DEMO_COUNT: '0' });
  server = await serveOnLoopback(deps, services.modules);
  await mkdir(join(ROOT, 'test-output'), { recursive: true });
  dir = await mkdtemp(join(ROOT, 'test-output', 'openapi-lint-'));
  for (const name of ['openapi', ...SERVICES]) {
    const path = name === 'openapi' ? '/openapi.json' : `/openapi/${name}.json`;
    const answer = await fetch(`${server.baseUrl}${path}`);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    documents.set(name, JSON.parse(text) as OpenApi);
    await writeFile(join(dir, `${name}.json`), text);
  }
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  await server?.close();
  await deps?.db.close();
});

function operations(doc: OpenApi): { where: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );
}

function lint(files: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(
      REDOCLY,
      ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format=json', ...files],
      {
        cwd: dir,
        // No usage report and no update check from a test run.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('the served OpenAPI documents', () => {
  it('name every operation once, declare its security with defined schemes, and document a 4xx', () => {
    const doc = documents.get('openapi')!;
    const all = operations(doc);
    expect(all.length).toBeGreaterThan(100);
    const problems: string[] = [];
    const seen = new Map<string, string>();
    const schemes = new Set(Object.keys(doc.components.securitySchemes ?? {}));
    for (const { where, op } of all) {
      const id = op.operationId;
      if (!id || !/^[a-z][A-Za-z0-9]*$/.test(id))
        problems.push(`${where}: operationId ${id} is not camelCase`);
      else if (seen.has(id)) problems.push(`${where}: operationId ${id} is also ${seen.get(id)}`);
      else seen.set(id, where);
      if (!Array.isArray(op.security)) problems.push(`${where}: no security declared`);
      for (const requirement of op.security ?? [])
        for (const name of Object.keys(requirement))
          if (!schemes.has(name)) problems.push(`${where}: security scheme ${name} is not defined`);
      if (!Object.keys(op.responses ?? {}).some((status) => status.startsWith('4')))
        problems.push(`${where}: no 4xx response`);
    }
    expect(problems).toEqual([]);
    // The names the generated clients call, stable across releases.
    expect(seen.get('placesSearch')).toBe('GET /places/search');
    expect(seen.get('placesGet')).toBe('GET /places/{fsq_place_id}');
    expect(seen.get('usersManagedUserCreate')).toBe('POST /users/managed-user/create');
    expect(seen.get('oauth2AccessToken')).toBe('POST /oauth2/access_token');
    expect(seen.get('zonesList')).toBe('GET /client/v4/zones');
    expect(seen.get('zonesCreate')).toBe('POST /client/v4/zones');
    expect(seen.get('zonesGet')).toBe('GET /client/v4/zones/{zone_id}');
    expect(seen.get('zonesFirewallRulesBulkDelete')).toBe('DELETE /client/v4/zones/{zone_id}/firewall/rules');
    expect(seen.get('zonesFirewallRulesDelete')).toBe(
      'DELETE /client/v4/zones/{zone_id}/firewall/rules/{rule_id}',
    );
  });

  it('carry the licence, and link the merged document and each service document both ways', async () => {
    const merged = documents.get('openapi')!;
    expect(merged.info.license?.identifier).toBe('Apache-2.0');
    const publicUrl = merged.servers[0]!.url;
    for (const name of SERVICES) {
      const url = `${publicUrl}/openapi/${name}.json`;
      expect(merged.tags?.find((tag) => tag.name === name)?.externalDocs?.url).toBe(url);
      expect(merged.info.description).toContain(url);
      const own = documents.get(name)!;
      expect(own.info.license?.identifier).toBe('Apache-2.0');
      expect(own.externalDocs?.url).toBe(`${publicUrl}/openapi.json`);
    }
    // Each service's operations are the merged document's, with the same names.
    const ids = (doc: OpenApi) => operations(doc).map(({ op }) => op.operationId);
    expect(SERVICES.flatMap((name) => ids(documents.get(name)!)).sort()).toEqual(ids(merged).sort());
  });

  it("pass Redocly's recommended ruleset with no error and no warning", async () => {
    const files = ['openapi', ...SERVICES].map((name) => `${name}.json`);
    const linted = await lint(files);
    // One JSON report per file, written one after the other.
    const reports = JSON.parse(`[${linted.stdout.replace(/\}\s*\{\s*"totals"/g, '},{"totals"')}]`) as {
      totals: { errors: number; warnings: number };
      problems: {
        ruleId: string;
        message: string;
        location: { source: { ref: string }; pointer: string }[];
      }[];
    }[];
    expect(reports).toHaveLength(files.length);
    const found = reports.flatMap((report) =>
      report.problems.map(
        (p) => `${p.location[0]?.source.ref} ${p.location[0]?.pointer}: ${p.ruleId}: ${p.message}`,
      ),
    );
    expect(found).toEqual([]);
    for (const report of reports) expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(linted.code).toBe(0);
  }, 120_000);
});
