import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const SERVING = Symbol('serving');
type Tracked = Duplex & { [SERVING]?: ServerResponse };

/**
 * Notes the response a connection serves now, on its socket (no map entry or listener per request; one
 * whose 'close' came is done, as if unset): the server's request handler calls it first.
 */
export function serving(req: IncomingMessage, res: ServerResponse): void {
  (req.socket as Tracked)[SERVING] = res;
}

const ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * Bytes node's HTTP parser refuses are answered as node does (400, 431 for an oversized head, 408 for a
 * timeout, then the connection closes), except that a request already received whole on that connection
 * gets its own answer first: a client that sends a request and then something that is not one (a body
 * longer than its Content-Length, junk after `Connection: close`) still reads the answer to its request,
 * as behind Apache or nginx, instead of a bare 400. The request handler calls `serving` for each request.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // as node's own handler: write the answer, then close at once (the address's connection slot is free)
    const answer = () => {
      if (socket.writable)
        socket.write(
          `HTTP/1.1 ${ANSWERS[error.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        );
      socket.destroy();
    };
    const serving = (socket as Tracked)[SERVING];
    const current = serving?.closed ? undefined : serving;
    if (current?.req.complete && !current.writableFinished) current.once('close', answer);
    else if (current?.headersSent) socket.destroy();
    else answer();
  });
}
