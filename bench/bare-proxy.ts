// The peer of the edge proxy's overhead (issue 16): the simplest reverse proxy node can be — node:http in
// front of one undici Pool, nothing looked up, nothing inspected; hop-by-hop headers dropped both ways, the
// body streamed. Prints {"port": …} once listening (bench/child.ts).
//
// Run: npx tsx bench/bare-proxy.ts http://127.0.0.1:<origin port>
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect']);
const pool = new Pool(process.argv[2] as string, { connections: 128, keepAliveTimeout: 4_000 });

const server = createServer((req, res) => {
  const headers: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2)
    if (!HOP.has((raw[i] as string).toLowerCase())) headers.push(raw[i] as string, raw[i + 1] as string);
  const hasBody =
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  pool
    .request({ path: req.url ?? '/', method: req.method as 'GET', headers, body: hasBody ? req : null })
    .then(
      (up) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(up.headers))
          if (value !== undefined && !HOP.has(name)) out[name] = value;
        res.writeHead(up.statusCode, out);
        up.body.pipe(res);
      },
      () => {
        res.writeHead(502).end();
      },
    );
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
