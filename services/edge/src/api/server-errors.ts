import { maxHeaderSize, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { EDGE_CODES } from './errors.ts';

// Answers Fastify and node give before any route, plugin or error handler of ours runs, in their own
// JSON: a request path that does not percent-decode (Fastify's FST_ERR_BAD_URL, decided by its router
// from server-wide options), and requests node's parser refuses — headers over node's limit (431), a
// header value with a NUL or another forbidden character (400) — before there is a request object
// (Fastify's `clientError` listener answers those). For paths under the edge API's prefix the
// server answers them in the envelope instead; every other path keeps the server's answer.

const installed = new WeakSet<Server>();

/** The envelope of one error, as the edge API's error handler renders it. */
function envelope(code: number, message: string): string {
  return JSON.stringify({ result: null, success: false, errors: [{ code, message }], messages: [] });
}

const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** Why the path of `url` does not decode (the router's rule: `decodeURI` of the part before ? or #). */
export function badPathProblem(url: string): string | undefined {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.includes('%')) return undefined;
  try {
    decodeURI(path);
    return undefined;
  } catch {
    const segment = path.split('/').find((s) => {
      try {
        decodeURIComponent(s);
        return false;
      } catch {
        return true;
      }
    });
    return `the URL path segment "${segment ?? path}" is not valid percent-encoded UTF-8; encode each byte of the UTF-8 form as %XX`;
  }
}

function sendEnvelope(res: ServerResponse, status: number, code: number, message: string): void {
  const body = envelope(code, message);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The request target of the request line at the start of `packet`, if there is one. */
function requestTarget(packet: Buffer | undefined): string | undefined {
  if (!packet) return undefined;
  const line = packet.toString('latin1', 0, Math.min(packet.length, 8192));
  return /^[A-Z]+ (\S+) HTTP\/1\.[01]\r?\n/.exec(line)?.[1];
}

/** The envelope for a request node's parser refused: 431 for headers over the limit, else 400. */
function parseErrorAnswer(code: string): { status: string; body: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: '431 Request Header Fields Too Large',
      body: envelope(
        EDGE_CODES.headersTooLarge,
        `the request's header fields are larger than ${maxHeaderSize} bytes, the limit; send a shorter Authorization header or fewer cookies`,
      ),
    };
  }
  return {
    status: '400 Bad Request',
    body: envelope(
      EDGE_CODES.validation,
      `the request is not valid HTTP/1.1 (${code}): a header name or value holds a character HTTP does not allow, or the framing is malformed`,
    ),
  };
}

function answerParseError(socket: Socket, code: string): void {
  const { status, body } = parseErrorAnswer(code);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Puts the edge envelope on the server's own answers for paths under `prefix`: wraps the server's
 * `request` listeners (Fastify's) and `clientError` listeners, so it must run after Fastify created the
 * server. Once per server.
 */
export function answerInEnvelope(server: Server, prefix: string): void {
  if (installed.has(server)) return;
  installed.add(server);
  const onRequest = server.listeners('request') as ((...args: unknown[]) => void)[];
  server.removeAllListeners('request');
  server.on('request', function edgeBadPath(req, res: ServerResponse) {
    const url = req.url ?? '/';
    const problem = isUnder(url.split(/[?#]/, 1)[0] as string, prefix) ? badPathProblem(url) : undefined;
    if (problem) return sendEnvelope(res, 400, EDGE_CODES.validation, problem);
    for (const listener of onRequest) listener.call(server, req, res);
  });
  const onClientError = server.listeners('clientError') as ((...args: unknown[]) => void)[];
  server.removeAllListeners('clientError');
  server.on(
    'clientError',
    function edgeClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) {
      // Parse errors only (HPE_*): timeouts and resets keep the server's handling.
      const code = error.code?.startsWith('HPE_') ? error.code : undefined;
      const target = code ? requestTarget(error.rawPacket) : undefined;
      if (
        code &&
        target !== undefined &&
        isUnder(target.split(/[?#]/, 1)[0] as string, prefix) &&
        !socket.destroyed
      ) {
        return answerParseError(socket, code);
      }
      for (const listener of onClientError) listener.call(server, error, socket);
    },
  );
}
