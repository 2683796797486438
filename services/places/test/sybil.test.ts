import { createOrganization, createServiceKey } from '@cairn/identity';
import { connectThirdPartyUser } from '@cairn/identity/testing';
import type { AuthContext, CredentialKind } from '@cairn/kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contributorAccuracy,
  reviewQueue,
  type SuggestResponse,
  suggestEdit,
  type Tally,
  vote,
} from '../src/index.ts';
import { api, placeIds } from './edit-helpers.ts';
import { type PlacesFixture, startPlaces } from './helpers.ts';

/**
 * Issue 14, finding 3: one organization must not get an edit of the shared dataset accepted with identities
 * it controls or mints freely — its service keys, its managed users, and the tokens its own apps hold.
 * People who signed up and connected an app still accept each other's edits with the usual quorum.
 */
let f: PlacesFixture;
let ids: string[];
let next = 0;
const freshPlace = () => ids[next++]!;
/** A second organization, whose app independent people use. */
let outsideOrg: string;

beforeAll(async () => {
  f = await startPlaces({ count: 40, seed: 'sybil' });
  ids = await placeIds(f);
  outsideOrg = (await createOrganization(f.identity.deps, 'Trail Co')).id;
}, 120_000);
afterAll(async () => {
  await f.close();
});

/** A managed user made the way the attack made them: through the users API with the organization's key. */
async function mintManagedUser(serviceKey = f.serviceKey): Promise<string> {
  const res = await fetch(`${f.baseUrl}/users/managed-user/create?first_name=Sock`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${serviceKey}`,
      'x-users-api-version': '2025-06-17',
      accept: 'application/json',
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** People who signed up and connected one app of `organizationId` (the first call registers the app). */
async function peopleThroughOneApp(organizationId: string, n: number): Promise<string[]> {
  const first = await connectThirdPartyUser(f.identity.deps, { organizationId });
  const tokens = [first.accessToken];
  for (let i = 1; i < n; i++) {
    tokens.push(
      (await connectThirdPartyUser(f.identity.deps, { organizationId, clientId: first.clientId }))
        .accessToken,
    );
  }
  return tokens;
}

async function name(id: string): Promise<string> {
  return (await api<{ name: string }>(f, 'GET', `/places/${id}`, { fields: 'name' })).body.name;
}

async function suggest(token: string, id: string, query: Record<string, string>) {
  const res = await api<SuggestResponse>(f, 'POST', `/places/${id}/suggest/edit`, query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.suggested_edits[0]!;
}

async function approve(token: string, editId: string, value = 'approve') {
  const res = await api<SuggestResponse>(f, 'POST', `/places/suggest/${editId}/vote`, { vote: value }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.suggested_edits[0]!;
}

describe('one organization cannot rewrite a shared place by itself', () => {
  it('the attack of the issue: three managed users of one service key — one renames, two approve — stays pending', async () => {
    const id = freshPlace();
    const before = await name(id);
    const [author, v1, v2] = [await mintManagedUser(), await mintManagedUser(), await mintManagedUser()];
    const edit = await suggest(author, id, { name: 'Hijacked Name' });
    await approve(v1, edit.id!);
    const last = await approve(v2, edit.id!);
    expect(last.status).toBe('pending');
    expect(last.votes).toMatchObject<Partial<Tally>>({
      approve: 2,
      counted_approvals: 0,
      not_counted: 2,
      approve_weight: 0.5,
      independent_approval_required: true,
    });
    expect(await name(id)).toBe(before);
  });

  it('ten managed users and the service key of one organization cannot accept an edit', async () => {
    const id = freshPlace();
    const before = await name(id);
    const author = await mintManagedUser();
    const edit = await suggest(author, id, { name: 'Ten Socks' });
    let last = edit;
    for (let i = 0; i < 10; i++) last = await approve(await mintManagedUser(), edit.id!);
    last = await approve(f.serviceKey, edit.id!);
    expect(last.status).toBe('pending');
    expect(last.votes).toMatchObject({ approve: 11, counted_approvals: 0, approve_weight: 0.5 });
    expect(await name(id)).toBe(before);
  });

  it('nor with the tokens its own app holds: accounts connected to its app count for nothing on its edits', async () => {
    const id = freshPlace();
    const before = await name(id);
    const edit = await suggest(await mintManagedUser(), id, { name: 'Driven Accounts' });
    let last = edit;
    for (const token of await peopleThroughOneApp(f.orgId, 3)) last = await approve(token, edit.id!);
    expect(last.status).toBe('pending');
    expect(last.votes).toMatchObject({ approve: 3, counted_approvals: 0 });
    expect(await name(id)).toBe(before);
  });

  it('a service key’s edit is not accepted by its own managed users either; independent people accept it', async () => {
    const id = freshPlace();
    const edit = await suggest(f.serviceKey, id, { name: 'Org Name' });
    for (let i = 0; i < 3; i++) await approve(await mintManagedUser(), edit.id!);
    const [p1, p2] = await peopleThroughOneApp(outsideOrg, 2);
    expect((await approve(p1!, edit.id!)).status).toBe('pending');
    const done = await approve(p2!, edit.id!);
    expect(done).toMatchObject({
      status: 'accepted',
      resolution: { kind: 'quorum' },
      votes: { counted_approvals: 2, approve_weight: 1.5, not_counted: 3 },
    });
    expect(done.resolution!.reason).toMatch(/^applied: 2 independent approval\(s\)/);
    expect(await name(id)).toBe('Org Name');
  });

  it('an organization’s managed users count once against an edit made through another organization', async () => {
    const id = freshPlace();
    const [author] = await peopleThroughOneApp(outsideOrg, 1);
    const edit = await suggest(author!, id, { website: 'https://trail.example.com/' });
    let last = edit;
    for (let i = 0; i < 10; i++) last = await approve(await mintManagedUser(), edit.id!, 'reject');
    expect(last).toMatchObject({
      status: 'pending',
      votes: { reject: 10, counted_rejections: 1, reject_weight: 0.5 },
    });
  });

  it('another organization’s managed users are independent of this one, counted once', async () => {
    const id = freshPlace();
    const { secret: otherKey } = await createServiceKey(f.identity.deps, { organizationId: outsideOrg });
    const edit = await suggest(await mintManagedUser(), id, { name: 'Two Orgs' });
    const one = await approve(await mintManagedUser(otherKey), edit.id!);
    const two = await approve(await mintManagedUser(otherKey), edit.id!);
    expect(one.votes).toMatchObject({ counted_approvals: 1, approve_weight: 1 });
    expect(two).toMatchObject({ status: 'pending', votes: { counted_approvals: 1, not_counted: 1 } });
  });
});

describe('the review queue', () => {
  it('offers each voter only the edits their vote counts on', async () => {
    const id = freshPlace();
    const byManaged = await suggestEdit(f.places.deps, identityOf('org-q', 'managed_user'), {
      fsq_place_id: id,
      description: 'Queue managed',
    });
    const byPerson = await suggestEdit(f.places.deps, identityOf('org-q', 'oauth_user'), {
      fsq_place_id: id,
      email: 'queue@example.com',
    });
    const [managedEdit, personEdit] = [byManaged, byPerson].map((r) => r.suggested_edits[0]!.id);
    const queued = async (viewer: AuthContext) =>
      (await reviewQueue(f.places.deps, viewer, { limit: 50 })).venues
        .flatMap((v) => v.woes.map((w) => w.id))
        .filter((e) => e === managedEdit || e === personEdit)
        .sort();
    // The organization's own managed user and key: neither (both came through it).
    expect(await queued(identityOf('org-q', 'managed_user'))).toEqual([]);
    expect(await queued(identityOf('org-q', 'service_key'))).toEqual([]);
    // A person through its app: the other person's edit, not the managed user's.
    expect(await queued(identityOf('org-q', 'oauth_user'))).toEqual([personEdit]);
    // Anyone through another organization: both.
    expect(await queued(identityOf('org-other', 'managed_user'))).toEqual([managedEdit, personEdit].sort());
    expect(await queued(identityOf('org-other', 'oauth_user'))).toEqual([managedEdit, personEdit].sort());
  });
});

describe('independent people keep today’s quorum', () => {
  it('three people who signed up and connected one third-party app: one suggests, two approve, it applies', async () => {
    const id = freshPlace();
    const [author, v1, v2] = await peopleThroughOneApp(outsideOrg, 3);
    const edit = await suggest(author!, id, { name: 'Chez Trail', tel: '+33 1 40 20 50 50' });
    expect(edit.votes).toMatchObject({ author_weight: 0.5, independent_approval_required: false });
    expect((await approve(v1!, edit.id!)).status).toBe('pending');
    const done = await approve(v2!, edit.id!);
    expect(done).toMatchObject({
      status: 'accepted',
      resolution: { kind: 'quorum' },
      votes: { approve: 2, counted_approvals: 2, approve_weight: 1.5, accept_quorum: 1.5 },
    });
    expect(await name(id)).toBe('Chez Trail');
  });
});

/** Auth contexts as identity resolves them, for the in-process functions (no HTTP, no sign-up per identity). */
let nextUser = 5_000_000;
function identityOf(organizationId: string, kind: CredentialKind): AuthContext {
  const credentialId = `sybil-${++nextUser}`;
  if (kind === 'service_key') return { kind, organizationId, credentialId: `key-${organizationId}` };
  if (kind === 'managed_user') return { kind, organizationId, userId: nextUser, credentialId };
  return { kind, organizationId, appId: `app-of-${organizationId}`, userId: nextUser, credentialId };
}

describe('through the service, over random mixes', () => {
  const ORGS = ['org-1', 'org-2', 'org-3'];
  const kind = fc.constantFrom<CredentialKind>('service_key', 'managed_user', 'oauth_user');
  const identity = fc.record({ org: fc.constantFrom(...ORGS), kind });

  it('no organization accepts an edit by its service key or managed user with its own identities; when one is accepted, an independent party approved it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ORGS),
        fc.constantFrom<CredentialKind>('service_key', 'managed_user'),
        fc.array(
          fc.record({ voter: identity, value: fc.constantFrom('approve', 'approve', 'reject', 'skip') }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        async (org, authorKind, ballots) => {
          const id = freshPlace() ?? ids[0]!; // 40 places: enough for every run
          const author = identityOf(org, authorKind);
          const made = await suggestEdit(f.places.deps, author, {
            fsq_place_id: id,
            description: `By ${org}`,
          });
          const editId = made.suggested_edits[0]!.id!;
          let status = made.suggested_edits[0]!.status;
          const approvers: AuthContext[] = [];
          for (const b of ballots) {
            if (status !== 'pending') break;
            const voter = identityOf(b.voter.org, b.voter.kind);
            if (voter.kind === 'service_key' && voter.organizationId === org && author.kind === 'service_key')
              continue;
            const res = await vote(f.places.deps, voter, { edit_id: editId, vote: b.value });
            status = res.suggested_edits[0]!.status;
            if (b.value === 'approve') approvers.push(voter);
          }
          if (status === 'accepted') {
            // Someone outside the organization, not a key or managed user of it nor a token of its apps, approved.
            expect(approvers.some((a) => a.organizationId !== org)).toBe(true);
          }
          if (ballots.every((b) => b.voter.org === org)) expect(status).not.toBe('accepted');
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  it('a veteran managed user (sixteen edits accepted by people) still waits for one independent approval', async () => {
    const veteran = identityOf('org-vet', 'managed_user');
    const place = ids[ids.length - 1]!;
    for (let i = 0; i < 16; i++) {
      const made = await suggestEdit(f.places.deps, veteran, {
        fsq_place_id: place,
        description: `Vet ${i}`,
      });
      let status = made.suggested_edits[0]!.status;
      // As the record grows, fewer approvals apply its edits; never none.
      expect(status).toBe('pending');
      while (status === 'pending') {
        const res = await vote(f.places.deps, identityOf('org-people', 'oauth_user'), {
          edit_id: made.suggested_edits[0]!.id!,
          vote: 'approve',
        });
        status = res.suggested_edits[0]!.status;
      }
      expect(status).toBe('accepted');
    }
    const record = await contributorAccuracy(f.places.deps, veteran);
    expect(record.organization_accuracy).toBeGreaterThanOrEqual(0.9);
    expect(record.applies_immediately).toBe(false);
    const made = await suggestEdit(f.places.deps, veteran, { fsq_place_id: place, description: 'Vet last' });
    expect(made.suggested_edits[0]).toMatchObject({ status: 'pending', votes: { author_weight: 1.5 } });
    const own = await vote(f.places.deps, identityOf('org-vet', 'managed_user'), {
      edit_id: made.suggested_edits[0]!.id!,
      vote: 'approve',
    });
    expect(own.suggested_edits[0]!.status).toBe('pending');
    const outside = await vote(f.places.deps, identityOf('org-people', 'oauth_user'), {
      edit_id: made.suggested_edits[0]!.id!,
      vote: 'approve',
    });
    expect(outside.suggested_edits[0]).toMatchObject({ status: 'accepted', resolution: { kind: 'quorum' } });
  }, 60_000);
});
