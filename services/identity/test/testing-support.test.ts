import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectThirdPartyUser } from '../src/testing.ts';
import { type IdentityFixture, startIdentity } from './helpers.ts';

let f: IdentityFixture;
beforeAll(async () => {
  f = await startIdentity();
});
afterAll(async () => {
  await f.close();
});

describe('connectThirdPartyUser (test support for other services)', () => {
  it('gives a person a third-party access token through the real code path', async () => {
    const connected = await connectThirdPartyUser(f.identity.deps, {
      organizationId: f.orgId,
      placemaker: true,
    });
    expect(connected.accessToken).toMatch(/^at_/);
    expect(await f.identity.resolveBearer(connected.accessToken)).toMatchObject({
      kind: 'oauth_user',
      organizationId: f.orgId,
      appId: connected.appId,
      userId: connected.userId,
    });
    const again = await connectThirdPartyUser(f.identity.deps, {
      organizationId: f.orgId,
      clientId: connected.clientId,
    });
    expect(again.appId).toBe(connected.appId);
    expect(again.userId).not.toBe(connected.userId);
  });
});
