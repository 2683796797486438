import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from './testing.ts';

const dirs = tempDirs('cairn-config');
afterAll(() => dirs.removeAll());

import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has defaults for a fresh machine', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe('./data');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://127.0.0.1:8080');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    ['PORT', 'eighty', /PORT: expected an integer from 0 to 65535, got "eighty"/],
    ['PORT', '70000', /PORT: expected an integer/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL: expected one of fatal, error/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: expected a postgres/],
    ['DATABASE_URL', 'not a url', /DATABASE_URL: expected a URL/],
    ['PUBLIC_URL', 'nope', /PUBLIC_URL: expected an absolute URL/],
    ['CAIRN_BOOTSTRAP_SERVICE_KEY', 'secret', /CAIRN_BOOTSTRAP_SERVICE_KEY: expected "svk_"/],
    ['AUTH_CACHE_TTL_MS', '-1', /AUTH_CACHE_TTL_MS/],
  ])('refuses %s=%s naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('reads a JSON file named by CAIRN_CONFIG; the environment wins over it', () => {
    const dir = dirs.make();
    const file = join(dir, 'cairn.json');
    writeFileSync(file, JSON.stringify({ PORT: 9001, CAIRN_DATA_DIR: '/var/lib/cairn', LOG_LEVEL: 'warn' }));
    const config = loadConfig({ CAIRN_CONFIG: file, LOG_LEVEL: 'debug' });
    expect(config.port).toBe(9001);
    expect(config.dataDir).toBe('/var/lib/cairn');
    expect(config.logLevel).toBe('debug');
  });

  it('names the file when it is not JSON', () => {
    const dir = dirs.make();
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{ PORT: ');
    expect(() => loadConfig({ CAIRN_CONFIG: file })).toThrow(/CAIRN_CONFIG: cannot read .*bad\.json as JSON/);
  });
});
