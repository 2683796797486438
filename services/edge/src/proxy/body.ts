import type { IncomingMessage } from 'node:http';

/** What the WAF sees of a request body: the first `limit` bytes, and how to send the whole body on. */
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
  const chunks: Buffer[] = [];
  let size = 0;
  let complete = false;
  while (size < limit) {
    const { value, done } = await it.next();
    if (done) {
      complete = true;
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  if (contentLength !== undefined && size >= contentLength) complete = true;
  const all = Buffer.concat(chunks, size);
  const head = size > limit ? all.subarray(0, limit) : all;
  return {
    head,
    complete,
    // the chunk that crossed the limit may have ended the body: complete, and still not all inspected
    truncated: !complete || size > limit,
    forward() {
      if (complete) return all;
      return (async function* rest() {
        yield all;
        for (;;) {
          const { value, done } = await it.next();
          if (done) return;
          yield value;
        }
      })();
    },
  };
}
