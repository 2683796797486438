import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, DataDirInUseError, LOCK_FILE, lockHolder } from '../src/db/lockfile.ts';
import { openPglite } from '../src/db/pglite.ts';
import { tempDirs } from '../src/testing.ts';

const dirs = tempDirs('cairn-lock');
afterAll(() => dirs.removeAll());

describe('the data directory lock', () => {
  it('refuses a second opener with a message naming the holder and the way out', async () => {
    const dir = dirs.make();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      writeFileSync(join(dir, LOCK_FILE), String(child.pid));
      expect(lockHolder(dir)).toBe(child.pid);
      expect(() => acquireLock(dir)).toThrow(DataDirInUseError);
      expect(() => acquireLock(dir)).toThrow(new RegExp(`in use by process ${child.pid}; stop that process`));
    } finally {
      child.kill();
    }
  });

  it('takes over the lock of a process that died', async () => {
    const dir = dirs.make();
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => child.on('exit', r));
    writeFileSync(join(dir, LOCK_FILE), String(child.pid));
    const release = acquireLock(dir);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('is held while the embedded database is open and released on close; data persists', async () => {
    const dir = dirs.make();
    const db = await openPglite(dir);
    await db.exec("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('yes');");
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    await db.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const again = await openPglite(dir);
    try {
      expect((await again.query('SELECT v FROM kept')).rows).toEqual([{ v: 'yes' }]);
    } finally {
      await again.close();
    }
  });
});
