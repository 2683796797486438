// A deliberately vulnerable web application for the differential attack harness (issue 40): the target
// sqlmap and wapiti attack while bench/waf-capture.ts records what they send. Loopback only. Never expose it.
//
//   GET  /                      links and forms, so a crawler finds every entry point
//   GET  /item?id=1             numeric SQL injection (PostgreSQL on PGlite; errors shown as PHP apps show them)
//   GET  /user?name=alice       string SQL injection
//   POST /login                 form SQL injection (user, password)
//   POST /api/items             JSON SQL injection ({"name": "tent", "limit": 5})
//   GET  /search?q=…            reflected XSS; POST /comment (text) the same from a form
//   GET  /file?path=notes.txt   path traversal: reads the file (first 8 KB)
//   GET  /ping?host=127.0.0.1   simulated command injection (answers as a shell would, runs nothing)
//
// Every request is appended as one JSON line to the file named by --record (method, url, raw headers, body;
// an X-Cairn-Capture header, which the capture adds to name the tool run, becomes its `source`).
//
// Run: npx tsx bench/vulnerable-origin.ts [--port N] [--record file.jsonl] [--no-sleep]
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type RecordedRequest, recordOf } from '../packages/seclang/test/waf-differential/corpus.ts';
import { simulatedShell } from './vulnerable-shell.ts';

const MAX_BODY = 1 << 20;
export const CAPTURE_HEADER = 'x-cairn-capture';

async function openDatabase(sleep: boolean): Promise<PGlite> {
  const db = await PGlite.create();
  if (!sleep) {
    // pg_sleep stops this whole process (PGlite runs in its thread), and every scanner sharing it: a no-op
    // shadows it (time-based injection then goes unconfirmed; the requests are recorded all the same)
    await db.exec(`CREATE FUNCTION public.pg_sleep(double precision) RETURNS void LANGUAGE sql AS 'SELECT';
      SET search_path = public, pg_catalog;`);
  }
  await db.exec(`
    CREATE TABLE users (id int PRIMARY KEY, name text, email text, password text);
    INSERT INTO users VALUES (1, 'admin', 'admin@example.test', 's3cret-admin'),
      (2, 'alice', 'alice@example.test', 'wonderland'), (3, 'bob', 'bob@example.test', 'builder');
    CREATE TABLE items (id int PRIMARY KEY, name text, price numeric);
    INSERT INTO items VALUES (1, 'tent', 120.5), (2, 'stove', 45), (3, 'lamp', 12.25);
  `);
  return db;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const INDEX = `<!doctype html><title>Outdoor shop</title>
<h1>Outdoor shop</h1>
<ul>
<li><a href="/item?id=1">Item 1</a></li>
<li><a href="/user?name=alice">Alice</a></li>
<li><a href="/search?q=tent">Search tents</a></li>
<li><a href="/file?path=notes.txt">Notes</a></li>
<li><a href="/ping?host=127.0.0.1">Ping</a></li>
</ul>
<form method="post" action="/login"><input name="user" value="alice"><input type="password" name="password" value="x"><button>Sign in</button></form>
<form method="post" action="/comment"><textarea name="text">hello</textarea><button>Comment</button></form>
<form method="get" action="/search"><input name="q" value="stove"><button>Search</button></form>
`;

function page(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Outdoor shop</title>${html}`);
}

/** Runs the query and renders the rows, or the database error as a careless PHP app would. */
async function rows(db: PGlite, res: ServerResponse, sql: string): Promise<void> {
  try {
    const result = await db.query<Record<string, unknown>>(sql);
    const list = result.rows.map((r) => `<li>${escapeHtml(Object.values(r).join(' | '))}</li>`).join('');
    page(res, 200, `<ul>${list}</ul>`);
  } catch (err) {
    page(
      res,
      500,
      `<b>Warning</b>: pg_query(): Query failed: ERROR:  ${(err as Error).message} in /var/www/html/shop.php`,
    );
  }
}

async function answer(db: PGlite, files: string, req: IncomingMessage, res: ServerResponse, body: Buffer) {
  const url = new URL(req.url ?? '/', 'http://origin');
  const q = (name: string) => url.searchParams.get(name) ?? '';
  const type = req.headers['content-type'] ?? '';
  const form = type.includes('x-www-form-urlencoded') ? new URLSearchParams(body.toString('utf8')) : null;
  switch (url.pathname) {
    case '/':
      return page(res, 200, INDEX);
    case '/item':
      return rows(db, res, `SELECT id, name, price FROM items WHERE id = ${q('id') || '1'}`);
    case '/user':
      return rows(db, res, `SELECT id, name, email FROM users WHERE name = '${q('name')}'`);
    case '/login': {
      if (req.method !== 'POST' || !form) return page(res, 200, INDEX);
      const sql = `SELECT name FROM users WHERE name = '${form.get('user') ?? ''}' AND password = '${form.get('password') ?? ''}'`;
      return rows(db, res, sql);
    }
    case '/api/items': {
      let input: { name?: unknown; limit?: unknown } = {};
      try {
        input = JSON.parse(body.toString('utf8') || '{}');
      } catch (err) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: (err as Error).message }));
      }
      const sql = `SELECT id, name, price FROM items WHERE name = '${String(input.name ?? '')}' LIMIT ${String(input.limit ?? 5)}`;
      return rows(db, res, sql);
    }
    case '/search':
      return page(res, 200, `<p>Results for ${q('q')}</p>`);
    case '/comment':
      return page(res, 200, `<p>Thanks for your comment: ${form?.get('text') ?? ''}</p>`);
    case '/file': {
      try {
        const text = readFileSync(join(files, q('path') || 'notes.txt')).subarray(0, 8192);
        return page(res, 200, `<pre>${escapeHtml(text.toString('utf8'))}</pre>`);
      } catch (err) {
        return page(res, 404, `<b>Warning</b>: include(${escapeHtml(q('path'))}): ${(err as Error).message}`);
      }
    }
    case '/ping':
      return page(res, 200, `<pre>${escapeHtml(simulatedShell(q('host')))}</pre>`);
    default:
      return page(res, 404, '<p>Not found</p>');
  }
}

/** The capture names the tool run in a header of its own: kept as the source, dropped from the request. */
function tagged(r: RecordedRequest): RecordedRequest {
  const tag = r.headers.find(([n]) => n.toLowerCase() === CAPTURE_HEADER)?.[1];
  if (tag === undefined) return r;
  return { ...r, headers: r.headers.filter(([n]) => n.toLowerCase() !== CAPTURE_HEADER), source: tag };
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const record = arg('--record');
  const db = await openDatabase(!process.argv.includes('--no-sleep'));
  const files = mkdtempSync(join(tmpdir(), 'cairn-vulnerable-files-'));
  writeFileSync(join(files, 'notes.txt'), 'Remember to restock the tents.\n');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (record) appendFileSync(record, `${JSON.stringify(tagged(recordOf(req, body)))}\n`);
      answer(db, files, req, res, body).catch((err) => page(res, 500, escapeHtml(String(err))));
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(Number(arg('--port') ?? 0), '127.0.0.1', r));
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
}

await main();
