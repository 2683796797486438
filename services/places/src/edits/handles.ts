import { createHmac } from 'node:crypto';
import type { PlacesDeps } from '../deps.ts';

const PURPOSE = 'cairn places contributor handle v1';
const keys = new WeakMap<Buffer, Buffer>();

/**
 * A stable, opaque name for a contributor ("user:<id>" or "organization:<id>"), shown to organizations that
 * may not see ids: `ctb_` and 128 bits of HMAC-SHA-256 under a key derived from the installation's secret
 * (`places_meta.cursor_secret`, made once and shared by every process). The same contributor has the same
 * handle in every answer and after restarts; without the secret it cannot be computed from ids, nor
 * reversed.
 */
export async function contributorHandle(deps: Pick<PlacesDeps, 'cursorSecret'>, contributor: string) {
  const secret = await deps.cursorSecret();
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update(PURPOSE).digest();
    keys.set(secret, key);
  }
  return `ctb_${createHmac('sha256', key).update(contributor).digest('base64url').slice(0, 22)}`;
}
