import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * PGlite has no lock across processes: two processes on one data directory silently lose writes.
 * We hold `cairn.lock` (our pid) for as long as the directory is open.
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `data directory ${dataDir} is in use by process ${pid}; stop that process, or point CAIRN_DATA_DIR at another directory, or set DATABASE_URL to share a PostgreSQL server`,
    );
    this.name = 'DataDirInUseError';
  }
}

export const LOCK_FILE = 'cairn.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the lock on dataDir, if a live process does. */
export function lockHolder(dataDir: string): number | undefined {
  const path = join(resolve(dataDir), LOCK_FILE);
  if (!existsSync(path)) return undefined;
  const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
}

export function acquireLock(dataDir: string): () => void {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dir);
      if (holder !== undefined) throw new DataDirInUseError(dataDir, holder);
      // Stale lock of a process that died without closing: take it over.
      try {
        unlinkSync(path);
      } catch {
        // someone else removed it first; retry
      }
    }
  }
  throw new Error(`could not lock data directory ${dataDir}`);
}
