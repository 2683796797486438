import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * Bytes node's HTTP parser refuses are answered as node does (400, 431 for an oversized head, 408 for a
 * timeout, then the connection closes), except that a request already received whole on that connection
 * gets its own answer first: a client that sends a request and then something that is not one (a body
 * longer than its Content-Length, junk after `Connection: close`) still reads the answer to its request,
 * as behind Apache or nginx, instead of a bare 400.
 */
export function answerClientErrors(server: Server): void {
  const serving = new WeakMap<Duplex, { req: IncomingMessage; res: ServerResponse }>();
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    serving.set(socket, { req, res });
    res.once('close', () => {
      if (serving.get(socket)?.res === res) serving.delete(socket);
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // as node's own handler: write the answer, then close at once (the address's connection slot is free)
    const answer = () => {
      if (socket.writable)
        socket.write(
          `HTTP/1.1 ${ANSWERS[error.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        );
      socket.destroy();
    };
    const current = serving.get(socket);
    if (current?.req.complete && !current.res.writableFinished) current.res.once('close', answer);
    else if (current?.res.headersSent) socket.destroy();
    else answer();
  });
}
