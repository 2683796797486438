// The open-loop load generator's HTTP/1.1 client: keep-alive connections over node:net, each request's
// head written as prepared bytes and each answer framed by its Content-Length (or chunked encoding) with
// nothing else parsed. node:http's client costs several times the CPU per request (its parser, Agent,
// IncomingMessage streams and their garbage), and on a 2-core machine the generator shares the cores with
// the server it measures: the leaner it is, the less of its own delay ends up in the latencies.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
}

type Done = (error: Error | undefined, answer?: RawAnswer) => void;

const CRLF2 = Buffer.from('\r\n\r\n');

/** One keep-alive connection answering one request at a time. */
class Connection {
  readonly socket: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private done: Done | undefined;
  closed = false;

  constructor(port: number, onIdle: (c: Connection) => void, onClose: (c: Connection) => void) {
    this.socket = connect({ host: '127.0.0.1', port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      const answer = this.parse();
      if (answer === undefined) return;
      const done = this.done;
      this.done = undefined;
      onIdle(this);
      done?.(undefined, answer);
    });
    const close = (error?: Error) => {
      if (this.closed) return;
      this.closed = true;
      onClose(this);
      this.done?.(error ?? new Error('connection closed before the answer'));
      this.done = undefined;
    };
    this.socket.on('error', close);
    this.socket.on('close', () => close());
  }

  send(head: string, done: Done): void {
    this.done = done;
    this.socket.write(head, 'latin1');
  }

  /** The answer when the buffer holds all of it (and drops it from the buffer), else undefined. */
  private parse(): RawAnswer | undefined {
    const b = this.buffer;
    const end = b.indexOf(CRLF2);
    if (end < 0) return undefined;
    const head = b.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let next: number;
    if (length) {
      next = end + 4 + Number(length[1]);
      if (b.length < next) return undefined;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = b.indexOf('\r\n0\r\n\r\n', end);
      if (last < 0) return undefined;
      next = last + 7;
    } else next = end + 4;
    this.buffer = b.subarray(next);
    return { status };
  }
}

/**
 * GET requests on as many keep-alive connections to 127.0.0.1:`port` as are needed for the requests in
 * flight (up to `maxConnections`; beyond, a request waits for the first free one).
 */
export class RawHttpClient {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly port: number,
    private readonly headerLines: string,
    private readonly maxConnections = 256,
  ) {}

  get(path: string, done: Done): void {
    const head = `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${this.port}\r\n${this.headerLines}\r\n`;
    const connection = this.idle.pop();
    if (connection) {
      connection.send(head, done);
      return;
    }
    if (this.all.size >= this.maxConnections) {
      this.waiting.push(() => this.get(path, done));
      return;
    }
    const fresh = new Connection(
      this.port,
      (c) => {
        const next = this.waiting.shift();
        this.idle.push(c);
        next?.();
      },
      (c) => {
        this.all.delete(c);
        const i = this.idle.indexOf(c);
        if (i >= 0) this.idle.splice(i, 1);
      },
    );
    this.all.add(fresh);
    fresh.send(head, done);
  }

  close(): void {
    for (const c of this.all) c.socket.destroy();
  }
}

/** Header lines (`name: value\r\n` each) of a header object. */
export function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}
