import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 answer as read off the wire. */
export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Opens a socket to the proxy (optionally from another loopback address, e.g. 127.0.0.2). */
export function openSocket(proxyAddress: string, localAddress?: string): Promise<Socket> {
  const { port, hostname } = new URL(proxyAddress);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, ...(localAddress ? { localAddress } : {}) });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Everything the peer sends until it closes the connection (errors such as a reset end it too). */
export function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const done = () => resolve(Buffer.concat(chunks).toString('latin1'));
    socket.once('close', done);
  });
}

/**
 * Writes `bytes` as given and reads until the proxy closes the connection; with `halfClose`, the client
 * then closes its sending side (so a request waiting for more bytes ends).
 */
export async function exchange(
  proxyAddress: string,
  bytes: string | Buffer,
  localAddress?: string,
  halfClose = false,
): Promise<string> {
  const socket = await openSocket(proxyAddress, localAddress);
  socket.on('error', () => {});
  const all = readAll(socket);
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  if (halfClose) socket.end(data);
  else socket.write(data);
  return all;
}

/** Splits a byte stream of HTTP/1.1 answers (Content-Length or chunked framed) into answers. */
export function parseAnswers(text: string): RawAnswer[] {
  const out: RawAnswer[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = text.slice(at, end);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
    let i = end + 4;
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let body = '';
    if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      for (;;) {
        const nl = text.indexOf('\r\n', i);
        const size = Number.parseInt(text.slice(i, nl), 16);
        i = nl + 2;
        if (!(size > 0)) {
          i += 2;
          break;
        }
        body += text.slice(i, i + size);
        i += size + 2;
      }
    } else if (length) {
      body = text.slice(i, i + Number(length[1]));
      i += Number(length[1]);
    } else {
      body = text.slice(i);
      i = text.length;
    }
    out.push({ status, head, body });
    at = i;
  }
  return out;
}
