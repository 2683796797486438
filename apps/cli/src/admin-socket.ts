import { existsSync, unlinkSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join, resolve } from 'node:path';

/**
 * The embedded database can be open in one process only, so while `cairn serve` holds it, other cairn
 * commands send their arguments over a Unix socket in the data directory (mode 0600, so only the owner)
 * and the server runs them on its own database.
 */
export interface ForwardedResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function adminSocketPath(dataDir: string): string {
  return join(resolve(dataDir), 'cairn.sock');
}

export async function startAdminSocket(
  dataDir: string,
  run: (argv: string[]) => Promise<ForwardedResult>,
): Promise<Server> {
  const path = adminSocketPath(dataDir);
  if (existsSync(path)) unlinkSync(path); // left by a process that died; we hold the data directory's lock
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        let result: ForwardedResult;
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { argv?: unknown };
          if (!Array.isArray(body.argv) || !body.argv.every((a) => typeof a === 'string'))
            throw new Error('bad request');
          result = await run(body.argv as string[]);
        } catch (error) {
          result = { code: 1, stdout: '', stderr: `error: ${(error as Error).message}\n` };
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      })();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen({ path, readableAll: false, writableAll: false }, ok);
  });
  server.unref();
  return server;
}

export function forwardToServer(dataDir: string, argv: string[]): Promise<ForwardedResult> {
  return new Promise((ok, fail) => {
    const req = request({ socketPath: adminSocketPath(dataDir), method: 'POST', path: '/cli' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          ok(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ForwardedResult);
        } catch (error) {
          fail(error);
        }
      });
    });
    req.on('error', fail);
    req.end(JSON.stringify({ argv }));
  });
}
