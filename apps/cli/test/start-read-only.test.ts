import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '@cairn/kit/testing';
import { assertBuilt, webApp } from '@cairn/kit/web-app';
import { afterAll, describe, expect, it } from 'vitest';

const dirs = tempDirs('cairn-start');
afterAll(() => dirs.removeAll());

// Resolving vite or the web build helper fails in the child: if anything serve loads reaches the builder,
// the import below throws.
const REFUSE_BUILDER = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  "export async function resolve(specifier, context, next) {" +
  "  if (specifier === 'vite' || specifier.endsWith('/web-build') || /\\\\/build\\\\.ts$/.test(specifier))" +
  "    throw new Error('the builder was imported: ' + specifier + ' from ' + context.parentURL);" +
  "  return next(specifier, context);" +
  "}"));
`)}`;

function importWithoutBuilder(modules: string[]) {
  const script = modules.map((m) => `await import(${JSON.stringify(m)});`).join(' ');
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        REFUSE_BUILDER,
        '--input-type=module',
        '-e',
        `${script} console.log('loaded')`,
      ],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('start reads the built web apps and never builds them', () => {
  it('serve and every service load without vite or the build helper', async () => {
    const src = (p: string) => fileURLToPath(new URL(`../src/${p}`, import.meta.url));
    const res = await importWithoutBuilder([src('commands/serve.ts'), src('runtime.ts')]);
    expect(res.output).toContain('loaded');
    expect(res.code, res.output).toBe(0);
    // The guard works: the build entry point is refused.
    const guard = await importWithoutBuilder(['@cairn/placemakers/build']);
    expect(guard.code).not.toBe(0);
    expect(guard.output).toMatch(/the builder was imported/);
  }, 120_000);

  it('a missing build stops start with what is missing and the command that builds it', () => {
    const app = webApp(dirs.make());
    expect(() => assertBuilt(app, 'The place editor')).toThrow(
      `The place editor is not built (${join(app.dist, 'index.html')} is missing): run "npm run build" in the Cairn checkout (npm install runs it), then start again`,
    );
    mkdirSync(app.dist);
    writeFileSync(join(app.dist, 'index.html'), '<!doctype html>');
    expect(() => assertBuilt(app, 'The place editor')).not.toThrow();
  });
});
