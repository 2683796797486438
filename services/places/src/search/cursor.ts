import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { invalidParameter } from '../errors.ts';

/**
 * Opaque page cursors: where the next page starts (the last row's sort key and id), the time the first page
 * was answered at (so open_now means the same on every page), and a digest of the search's parameters, all
 * signed with the installation's secret. Edited, truncated or foreign cursors are refused; a cursor used with
 * other parameters than the ones it was made for is refused too.
 */
export interface CursorState {
  /** Digest of the canonical parameters. */
  p: string;
  /** Answer time of the first page, ms. */
  t: number;
  /** Sort key and id of the last row of the previous page. */
  k: number;
  i: string;
  /**
   * sort=RELEVANCE (store/places-search.ts): 2 when that row was a match as written beyond the window of the
   * nearest, 1 when it matched the query only approximately.
   */
  f?: 1 | 2;
}

export function paramsDigest(canonical: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 22);
}

export function encodeCursor(secret: Buffer, state: CursorState): string {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  const mac = createHmac('sha256', secret).update(body).digest('base64url').slice(0, 32);
  return `${body}.${mac}`;
}

const tampered = () =>
  invalidParameter(
    'cursor',
    'it is not a cursor this service issued, or it was altered; use the Link header of the previous page',
  );

export function decodeCursor(secret: Buffer, cursor: string, expectedDigest: string): CursorState {
  const [body, mac, extra] = cursor.split('.');
  if (!body || !mac || extra !== undefined || cursor.length > 2000) throw tampered();
  const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('base64url').slice(0, 32));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw tampered();
  let state: CursorState;
  try {
    state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorState;
  } catch {
    throw tampered();
  }
  if (
    typeof state.k !== 'number' ||
    typeof state.i !== 'string' ||
    typeof state.t !== 'number' ||
    (state.f !== undefined && state.f !== 1 && state.f !== 2)
  )
    throw tampered();
  if (state.p !== expectedDigest) {
    throw invalidParameter(
      'cursor',
      'it belongs to a search with other parameters; repeat the original parameters with it',
    );
  }
  return state;
}
