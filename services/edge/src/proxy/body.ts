import type { IncomingMessage } from 'node:http';
import { multipartView } from './multipart-view.ts';

/**
 * What the WAF sees of a request body: the first `limit` bytes (of a multipart/form-data body, its
 * view without the file contents), and how to send the whole body on.
 */
export interface BufferedBody {
  /** The inspected prefix: the first `limit` bytes. */
  head: Buffer;
  /** The whole body has been read (it may still be longer than the head). */
  complete: boolean;
  /** More followed the head: `http.request.body.truncated`. */
  truncated: boolean;
  /** The body for the origin: the head, then the rest as it arrives. */
  forward(): Buffer | AsyncIterable<Buffer>;
}

/** Reads until `limit` bytes or the body's end (a chunk may cross the limit). */
async function readUpTo(it: AsyncIterator<Buffer>, limit: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < limit) {
    const { value, done } = await it.next();
    if (done) {
      ended = true;
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  return { all: Buffer.concat(chunks, size), ended };
}

/** The held bytes, then the rest of the body as it arrives. */
function forwarder(all: Buffer, complete: boolean, it: AsyncIterator<Buffer>) {
  return (): Buffer | AsyncIterable<Buffer> => {
    if (complete) return all;
    return (async function* rest() {
      yield all;
      for (;;) {
        const { value, done } = await it.next();
        if (done) return;
        yield value;
      }
    })();
  };
}

/**
 * Reads a request body until `limit` bytes or its end, without reading further: the rest stays in the
 * socket and streams to the origin behind the head, so memory per request is bounded by the limit.
 */
export async function bufferBody(
  req: IncomingMessage,
  limit: number,
  contentLength: number | undefined,
): Promise<BufferedBody> {
  const it = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const { all, ended } = await readUpTo(it, limit);
  const complete = ended || (contentLength !== undefined && all.length >= contentLength);
  return {
    head: all.length > limit ? all.subarray(0, limit) : all,
    complete,
    // the chunk that crossed the limit may have ended the body: complete, and still not all inspected
    truncated: !complete || all.length > limit,
    forward: forwarder(all, complete, it),
  };
}

/**
 * A multipart/form-data body: held whole up to `holdLimit` (EDGE_WAF_MULTIPART_LIMIT), and inspected as
 * ModSecurity counts it: everything but the file parts' contents, up to `inspectLimit` (see
 * multipart-view.ts). Truncated when those bytes pass `inspectLimit` or the body passes `holdLimit`
 * (a Content-Length over it is read as any body, up to `inspectLimit` only). Forwarded whole.
 */
export async function bufferMultipartBody(
  req: IncomingMessage,
  limits: { inspectLimit: number; holdLimit: number },
  contentLength: number | undefined,
  contentType: string,
): Promise<BufferedBody> {
  const { inspectLimit, holdLimit } = limits;
  if (holdLimit <= inspectLimit || (contentLength !== undefined && contentLength > holdLimit))
    return bufferBody(req, inspectLimit, contentLength);
  const it = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const { all, ended } = await readUpTo(it, holdLimit);
  const complete = ended || (contentLength !== undefined && all.length >= contentLength);
  const view = multipartView(all, contentType, inspectLimit);
  const head = view?.head ?? all.subarray(0, inspectLimit);
  return {
    head,
    complete,
    truncated: !complete || (view ? view.cut : all.length > inspectLimit),
    forward: forwarder(all, complete, it),
  };
}
