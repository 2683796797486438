import type { ServerResponse } from 'node:http';
import type { Logger } from '@cairn/kit';
import type { Dispatcher } from 'undici';
import { clientResponseRawHeaders } from './headers.ts';
import { badGatewayPage, type EdgePage, gatewayTimeoutPage } from './pages.ts';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

/** A page the edge answers itself, with the ray id (a HEAD request gets the head only). */
export function send(res: ServerResponse, page: EdgePage, rayId: string, head = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(page.status, { ...page.headers, 'cf-ray': `${rayId}-CRN` });
  res.end(head ? undefined : page.body);
}

const EXCHANGE = Symbol('origin exchange');
type Tagged = ServerResponse & { [EXCHANGE]?: OriginExchange };

// One listener function for every response (no closure per request): `this` is the response.
function onClientClose(this: Tagged): void {
  this[EXCHANGE]?.clientClosed();
}
function onClientDrain(this: Tagged): void {
  this[EXCHANGE]?.resumeOrigin?.();
}

/**
 * One request to the origin, as an undici dispatch handler writing the answer to the client's response:
 * the head (hop-by-hop fields dropped, the ray id added) on `onHeaders`, each chunk on `onData` (false
 * pauses the origin until the client's socket drains), the end on `onComplete`. The origin failing before
 * the head → 502 (504 when it timed out); after → the client's connection is cut. The client going away
 * first aborts the origin request.
 */
export class OriginExchange implements Dispatcher.DispatchHandler {
  private abortOrigin: ((error?: Error) => void) | undefined;
  resumeOrigin: (() => void) | undefined;
  private clientGone = false;
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly origin: string,
    private readonly host: string,
    private readonly rayId: string,
    private readonly log: Logger,
  ) {
    (res as Tagged)[EXCHANGE] = this;
    res.on('close', onClientClose);
  }

  clientClosed(): void {
    if (this.done || this.res.writableFinished) return;
    this.clientGone = true;
    this.abortOrigin?.();
  }

  onConnect(abort: (error?: Error) => void): void {
    this.abortOrigin = abort;
    if (this.clientGone) abort();
  }

  onHeaders(statusCode: number, raw: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // 1xx informational answers are not relayed
    const headers = clientResponseRawHeaders(raw);
    headers.push('cf-ray', `${this.rayId}-CRN`);
    try {
      this.res.writeHead(statusCode, headers);
    } catch (error) {
      // a head node refuses to write (a field value with a control character)
      this.fail(error as Error);
      this.abortOrigin?.(error as Error);
      return false;
    }
    this.resumeOrigin = resume;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.res.write(chunk)) return true;
    if (this.res.destroyed) {
      // no 'drain' will come: stop the origin instead of waiting for one
      this.clientClosed();
      return false;
    }
    this.res.once('drain', onClientDrain);
    return false;
  }

  onComplete(): void {
    this.finish();
    this.res.end();
  }

  onError(error: Error): void {
    if (this.done) return;
    this.finish();
    if (this.clientGone || this.res.destroyed) return;
    if (this.res.headersSent) {
      this.log.warn(
        { origin: this.origin, rayId: this.rayId },
        `edge: response stream broke: ${error.message}`,
      );
      this.res.destroy();
      return;
    }
    this.fail(error);
  }

  private finish(): void {
    this.done = true;
    this.res.off('close', onClientClose);
  }

  private fail(error: Error): void {
    this.finish();
    const code = (error as { code?: string }).code ?? '';
    this.log.warn(
      { origin: this.origin, code, rayId: this.rayId },
      `edge: origin request failed: ${error.message}`,
    );
    send(
      this.res,
      TIMEOUT_CODES.has(code)
        ? gatewayTimeoutPage(this.host, this.rayId)
        : badGatewayPage(this.host, this.rayId),
      this.rayId,
    );
  }
}
