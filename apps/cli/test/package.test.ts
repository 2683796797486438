import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testDatabaseUrl } from '@cairn/kit';
import { tempDirs } from '@cairn/kit/testing';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('..', import.meta.url));
const dirs = tempDirs('cairn-package');
afterAll(() => dirs.removeAll());

// What a project that installs the tarball runs: plain JavaScript, no TypeScript, no clone of this repository.
const SCRIPT = `import { startCairn } from 'cairn/testing';
const cairn = await startCairn({ places: 50 });
try {
  const headers = { authorization: \`Bearer \${cairn.serviceKey}\`, 'x-places-api-version': '2025-06-17' };
  const search = await fetch(\`\${cairn.url}/places/search?query=cafe&limit=1\`, { headers });
  const health = await fetch(\`\${cairn.proxyUrl}/\`, { headers: { host: 'unknown.example' } });
  cairn.faults.add({ route: '/places/search', status: 429, retryAfter: 1, times: 1 });
  const limited = await fetch(\`\${cairn.url}/places/search?query=cafe\`, { headers });
  await cairn.snapshot('one');
  const before = cairn.clock.now().getTime();
  cairn.clock.advance('10m');
  const moved = cairn.clock.now().getTime() - before;
  await cairn.reset();
  const journal = cairn.requests.list();
  console.log(JSON.stringify({
    search: search.status, proxy: health.status, limited: limited.status,
    retryAfter: limited.headers.get('retry-after'), moved, journal: journal.length,
  }));
} finally {
  await cairn.stop();
}
`;

// Packing builds the package (esbuild, the web apps) and installing it fetches its dependencies: minutes on a
// loaded machine. It does not depend on the database engine, so it runs in the embedded pass only.
describe.skipIf(testDatabaseUrl() !== undefined)('the npm package', () => {
  it('packs, installs into an empty project, and runs cairn --help and startCairn without tsx', async () => {
    const out = dirs.make();
    const packed = await run('npm', ['pack', '--pack-destination', out, '--json'], {
      cwd: CLI,
      maxBuffer: 64 * 1024 * 1024,
    });
    const tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
    expect(tarball).toMatch(/cairn-\d+\.\d+\.\d+\.tgz$/);
    // npm prints the prepack script's banner before the JSON.
    const files = (
      JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { files: { path: string }[] }[]
    )[0]!.files.map((f) => f.path);
    expect(files).toContain('dist/main.js');
    expect(files).toContain('dist/testing.js');
    expect(files).toContain('types/testing.d.ts');
    expect(files.some((f) => f.startsWith('src/'))).toBe(false);
    expect(files.some((f) => f.startsWith('dist/services/edge/web/dist/'))).toBe(true);
    expect(files).toContain('dist/crs/rules/REQUEST-901-INITIALIZATION.conf');
    process.stdout.write(
      `cairn tarball: ${(statSync(tarball).size / 1024).toFixed(0)} KiB, ${files.length} files\n`,
    );

    const project = dirs.make();
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'uses-cairn', private: true, type: 'module' }),
    );
    await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: project,
      maxBuffer: 64 * 1024 * 1024,
    });
    // Nothing of the workspace came along: no tsx, no @cairn/* packages.
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', '@cairn'))).toBe(false);

    const help = await run('npx', ['cairn', '--help'], { cwd: project });
    expect(help.stdout).toContain('Usage: cairn <command>');
    const version = await run('npx', ['cairn', 'keys', 'list', '--help'], { cwd: project });
    expect(version.stdout).toContain('Usage: cairn keys list');

    writeFileSync(join(project, 'start.mjs'), SCRIPT);
    const started = await run('node', ['start.mjs'], {
      cwd: project,
      env: { ...process.env, CAIRN_CACHE_DIR: join(project, '.cache') },
    });
    const result = JSON.parse(started.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(result).toMatchObject({
      search: 200,
      proxy: expect.any(Number),
      limited: 429,
      retryAfter: '1',
      moved: expect.any(Number),
    });
    expect(result.moved as number).toBeGreaterThanOrEqual(600_000);
    expect(result.journal).toBe(0); // reset() empties the journal
  }, 1_500_000);
});
