import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Seen } from './proxy-fixture.ts';

// Streaming stays flat (issue 16, point 4): 50 MB up and 50 MB down through the proxy with the WAF on
// (both managed rulesets, the OWASP CRS at PL1, which inspects the first EDGE_WAF_BODY_LIMIT bytes of
// the upload). The proxy (and its streaming origin) run in a process of their own
// (proxy-streaming-child.ts), whose resident memory must stay within 64 MB of where it started; the
// bytes arrive intact.
const SIZE = 50 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const MB = 1024 * 1024;
const CHILD = fileURLToPath(new URL('./proxy-streaming-child.ts', import.meta.url));
let child: ChildProcess;
let proxy: string;

beforeAll(async () => {
  // glibc's fixed mmap threshold: freed large buffers go back to the system, so RSS shows live ones
  child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '65536' },
  });
  proxy = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const line = /^\{"proxy".*\}$/m.exec(out);
      if (line) resolve((JSON.parse(line[0]) as { proxy: string }).proxy);
    });
    child.once('exit', (code) => reject(new Error(`the proxy process exited (${code}): ${out}`)));
  });
}, 120_000);
afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin?.end();
  await exited;
});

/** The proxy process's resident memory (VmRSS), in bytes. */
function rss(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/** The proxy process's highest RSS while `work` runs, sampled every 20 ms. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 20);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rss()) };
  } finally {
    clearInterval(timer);
  }
}

describe('50 MB each way through the WAF', () => {
  it('upload: intact at the origin, RSS growth under 64 MB', async () => {
    // Random bytes, but without '$': a random megabyte holds "${" about 16 times, and "${:" (an obfuscated
    // Log4j lookup) is blocked by the managed ruleset — about one random body in 130 was, in the inspected
    // first EDGE_WAF_BODY_LIMIT bytes.
    const base = randomBytes(CHUNK).map((byte) => (byte === 0x24 ? 0x23 : byte));
    const sent = createHash('sha256');
    // 50 distinct 1 MB chunks (the index stamped in), generated as the proxy asks for them
    async function* body() {
      for (let i = 0; i < SIZE / CHUNK; i++) {
        const chunk = Buffer.from(base);
        chunk.writeUInt32BE(i, 0);
        sent.update(chunk);
        yield chunk;
      }
    }
    const before = rss();
    const { result, peak } = await peakRss(async () => {
      const res = await request(`${proxy}/echo/upload`, {
        method: 'POST',
        headers: { host: 'stream.example.com', 'content-type': 'application/octet-stream' },
        body: Readable.from(body()),
      });
      return { status: res.statusCode, seen: (await res.body.json()) as Seen };
    });
    expect(result.status).toBe(200);
    expect(result.seen.bodyLength).toBe(SIZE);
    expect(result.seen.bodySha256).toBe(sent.digest('hex'));
    expect((peak - before) / MB).toBeLessThan(64);
  }, 120_000);

  it('download: intact at the client, RSS growth under 64 MB', async () => {
    // the origin's /big answer: 64 KB blocks of 'x'
    const expected = createHash('sha256');
    const block = Buffer.alloc(65_536, 'x');
    for (let left = SIZE; left > 0; left -= block.length)
      expected.update(block.subarray(0, Math.min(left, block.length)));
    const before = rss();
    const { result, peak } = await peakRss(async () => {
      const res = await request(`${proxy}/big?bytes=${SIZE}`, {
        headers: { host: 'stream.example.com' },
      });
      const got = createHash('sha256');
      let length = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        got.update(chunk);
        length += chunk.length;
      }
      return { status: res.statusCode, length, sha: got.digest('hex') };
    });
    expect(result.status).toBe(200);
    expect(result.length).toBe(SIZE);
    expect(result.sha).toBe(expected.digest('hex'));
    expect((peak - before) / MB).toBeLessThan(64);
  }, 120_000);
});
