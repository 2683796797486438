import type { IncomingMessage } from 'node:http';

/**
 * The bytes of multipart bodies held whole at once in this process (EDGE_WAF_MULTIPART_MEMORY): a
 * request reserves its Content-Length (the hold limit when it has none) before its body is read, and
 * gives it back when its response closes. Without it, slow uploads from many connections could each
 * hold EDGE_WAF_MULTIPART_LIMIT; with it, memory for held bodies is bounded whatever clients send.
 */
export class HeldBytes {
  private held = 0;
  private readonly reserved = new WeakMap<IncomingMessage, number>();

  constructor(readonly total: number) {}

  /** Reserves `bytes` for `req`; false (nothing reserved) when that would pass the total. */
  reserve(req: IncomingMessage, bytes: number): boolean {
    if (this.held + bytes > this.total) return false;
    this.held += bytes;
    this.reserved.set(req, bytes);
    return true;
  }

  /** Gives back what `req` reserved, if anything (once). */
  release(req: IncomingMessage): void {
    const bytes = this.reserved.get(req);
    if (bytes === undefined) return;
    this.reserved.delete(req);
    this.held -= bytes;
  }
}
