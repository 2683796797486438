import { createOrganization, createServiceKey } from '@cairn/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../apps/cli/src/index.ts';
import {
  contributorAccuracy,
  createPlaces,
  type EditView,
  editStatus,
  placeHistory,
  reviewQueue,
  rollbackEdit,
  type SuggestPlaceResponse,
  type SuggestResponse,
  suggestEdit,
  vote,
} from '../src/index.ts';
import { api, count, managedUser, oauthUser, placeIds, serviceKeyCaller } from './edit-helpers.ts';
import { type PlacesFixture, startPlaces } from './helpers.ts';

let f: PlacesFixture;
let ids: string[];
let next = 0;
/** A place no other test has touched. */
const freshPlace = () => ids[next++]!;

beforeAll(async () => {
  f = await startPlaces({ count: 150, seed: 'edits' });
  ids = await placeIds(f);
}, 120_000);
afterAll(async () => {
  await f.close();
});

async function place(id: string) {
  return (
    await api<Record<string, unknown>>(f, 'GET', `/places/${id}`, {
      fields: 'name,tel,location,description,hours,date_closed',
    })
  ).body;
}

async function suggest(token: string, id: string, query: Record<string, string>) {
  const res = await api<SuggestResponse>(f, 'POST', `/places/${id}/suggest/edit`, query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.suggested_edits[0]!;
}

async function castVote(token: string, editId: string, value: string) {
  return api<SuggestResponse>(f, 'POST', `/places/suggest/${editId}/vote`, { vote: value }, token);
}

describe('suggest, vote, apply', () => {
  it('applies a new user’s edit after two approvals from new users, records history with attribution', async () => {
    const id = freshPlace();
    const [author, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const before = await place(id);
    const edit = await suggest(author.token, id, { name: 'Chez Cairn', tel: '+33 1 42 68 53 00' });
    expect(edit).toMatchObject({
      fsq_place_id: id,
      suggested_edit_type: 'edit',
      status: 'pending',
      resolved_time: null,
      rolled_back: null,
      own: true,
      my_vote: null,
      votes: { approve: 0, reject: 0, author_weight: 0.5, approve_weight: 0.5, accept_quorum: 1.5 },
    });
    expect(edit.changes).toEqual([
      { fsq_place_id: id, field: 'name', from: before.name, to: 'Chez Cairn' },
      { fsq_place_id: id, field: 'tel', from: before.tel ?? null, to: '+33142685300' },
    ]);

    const first = await castVote(v1.token, edit.id!, 'approve');
    expect(first.status).toBe(200);
    expect(first.body.suggested_edits[0]).toMatchObject({
      status: 'pending',
      my_vote: 'approve',
      own: false,
    });
    expect((await place(id)).name).toBe(before.name);

    const second = await castVote(v2.token, edit.id!, 'approve');
    expect(second.body.suggested_edits[0]).toMatchObject({
      status: 'accepted',
      resolution: { kind: 'quorum' },
      votes: { approve: 2, approve_weight: 1.5 },
    });
    expect(second.body.suggested_edits[0]!.resolved_time).not.toBeNull();
    expect((await place(id)).name).toBe('Chez Cairn');
    const found = await api<{ results: { fsq_place_id: string }[] }>(f, 'GET', '/places/search', {
      query: 'Chez Cairn',
      limit: '5',
    });
    expect(found.body.results.map((r) => r.fsq_place_id)).toContain(id);

    const history = await api<{ history: Record<string, unknown>[] }>(f, 'GET', `/places/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.history).toHaveLength(2);
    expect(history.body.history.find((h) => h.field === 'name')).toMatchObject({
      edit_id: edit.id,
      action: 'apply',
      from: before.name,
      to: 'Chez Cairn',
      at: f.clock.now().toISOString(),
      attribution: {
        organization_id: f.orgId,
        user_id: author.auth.userId,
        credential_kind: 'oauth_user',
        app_id: author.appId,
      },
    });
  });

  it('rejects an edit when weighted rejections reach the reject quorum', async () => {
    const id = freshPlace();
    const [author, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const edit = await suggest(author.token, id, { website: 'https://example.org/' });
    await castVote(v1.token, edit.id!, 'reject');
    const res = await castVote(v2.token, edit.id!, 'reject');
    expect(res.body.suggested_edits[0]).toMatchObject({ status: 'rejected', resolution: { kind: 'votes' } });
    expect((await place(id)).website).toBeUndefined();
  });

  it('one vote per user: a second vote replaces the first; a vote on a resolved edit is 409', async () => {
    const id = freshPlace();
    const [author, voter, other] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const edit = await suggest(author.token, id, { postcode: '75001' });
    expect((await castVote(voter.token, edit.id!, 'approve')).body.suggested_edits[0]!.votes.approve).toBe(1);
    const again = await castVote(voter.token, edit.id!, 'skip');
    expect(again.status).toBe(200);
    expect(again.body.suggested_edits[0]).toMatchObject({
      status: 'pending',
      my_vote: 'skip',
      votes: { approve: 0, skip: 1, reject: 0 },
    });
    const { rows } = await f.deps.db.query('SELECT vote FROM places_edit_votes WHERE edit_id = $1', [
      edit.id,
    ]);
    expect(rows).toEqual([{ vote: 'skip' }]);
    await castVote(voter.token, edit.id!, 'reject');
    const done = await castVote(other.token, edit.id!, 'reject');
    expect(done.body.suggested_edits[0]!.status).toBe('rejected');
    const late = await castVote(voter.token, edit.id!, 'approve');
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/already rejected/);
  });

  it('nobody votes on their own edit (403), a service key’s organization included', async () => {
    const author = await managedUser(f);
    const edit = await suggest(author.token, freshPlace(), { locality: 'Lutetia' });
    const own = await castVote(author.token, edit.id!, 'approve');
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/own suggested edit/);

    const byKey = await suggest(f.serviceKey, freshPlace(), { locality: 'Lutetia' });
    const { createServiceKey } = await import('@cairn/identity');
    const { secret } = await createServiceKey(f.identity.deps, { organizationId: f.orgId });
    const sameOrg = await castVote(secret, byKey.id!, 'approve');
    expect(sameOrg.status).toBe(403);
    expect(sameOrg.body.message).toMatch(/service keys vote as their organization/);
    // A managed user of that organization is another contributor, but not independent of it: the vote is
    // taken and weighs nothing.
    const sameParty = await castVote(author.token, byKey.id!, 'approve');
    expect(sameParty.status).toBe(200);
    expect(sameParty.body.suggested_edits[0]!.votes).toMatchObject({
      approve: 1,
      counted_approvals: 0,
      not_counted: 1,
      approve_weight: 0.5,
      independent_approval_required: true,
    });
  });

  it('answers 404 for an unknown edit or place and 400 for a bad vote', async () => {
    const u = await managedUser(f);
    expect((await castVote(u.token, '00000000-0000-4000-8000-000000000000', 'approve')).status).toBe(404);
    const bad = await castVote(u.token, 'not-an-id', 'approve');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/edit_id/);
    const edit = await suggest(f.serviceKey, freshPlace(), { region: 'IDF' });
    const wrong = await castVote(u.token, edit.id!, 'maybe');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^Invalid vote/);
    const missing = await api(f, 'POST', '/places/nosuchplace/suggest/edit', { name: 'X' });
    expect(missing.status).toBe(404);
  });
});

describe('stale edits', () => {
  it('rejects at resolution an edit whose field changed since it was made, saying which', async () => {
    const id = freshPlace();
    const [a, b, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const first = await suggest(a.token, id, { name: 'First Name' });
    const second = await suggest(b.token, id, { name: 'Second Name', description: 'A fine place' });
    // An edit of another field is not affected.
    const other = await suggest(b.token, id, { email: 'hello@example.com' });
    await castVote(v1.token, first.id!, 'approve');
    await castVote(v2.token, first.id!, 'approve');
    await castVote(v1.token, second.id!, 'approve');
    const res = await castVote(v2.token, second.id!, 'approve');
    const stale = res.body.suggested_edits[0]!;
    expect(stale.status).toBe('rejected');
    expect(stale.resolution!.kind).toBe('stale');
    expect(stale.resolution!.reason).toMatch(
      /^stale: name changed since the edit was suggested \(it was ".*" and is now "First Name"\)/,
    );
    expect((await place(id)).name).toBe('First Name');
    expect((await place(id)).description).toBeUndefined();
    await castVote(v1.token, other.id!, 'approve');
    expect((await castVote(v2.token, other.id!, 'approve')).body.suggested_edits[0]!.status).toBe('accepted');
    // A stale rejection counts neither for nor against the author.
    const accuracy = await contributorAccuracy(f.places.deps, b.auth);
    expect(accuracy.overall.edits).toMatchObject({ accepted: 1, rejected: 0, stale: 1 });
  });
});

describe('dry runs write nothing', () => {
  it('validates and answers with what would be created, for every mutation', async () => {
    const id = freshPlace();
    const dup = freshPlace();
    const author = await oauthUser(f);
    const voter = await oauthUser(f);
    const pending = await suggest(author.token, freshPlace(), { name: 'Pending One' });
    const tables = ['places_edits', 'places_edit_votes', 'places_history', 'places_removed', 'places'];
    const before = await Promise.all(tables.map((t) => count(f, t)));
    const placeBefore = await place(id);
    const calls: [string, Record<string, string>][] = [
      [`/places/${id}/suggest/edit`, { name: 'Dry Name', dry_run: 'true' }],
      [`/places/${id}/suggest/remove`, { reason: 'DOESNT_EXIST', dry_run: 'true' }],
      [`/places/${id}/suggest/flag`, { fields: 'name,tel', dry_run: 'true' }],
      [`/places/${id}/suggest/merge`, { duplicate_fsq_place_ids: dup, dry_run: 'true' }],
      ['/places/suggest/place', { name: 'Dry Café', latitude: '48.85', longitude: '2.35', dry_run: 'true' }],
      [`/places/suggest/${pending.id}/vote`, { vote: 'approve', dry_run: 'true' }],
    ];
    for (const [path, query] of calls) {
      const res = await api<SuggestResponse>(
        f,
        'POST',
        path,
        query,
        path.includes('vote') ? voter.token : author.token,
      );
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
      const edit = res.body.suggested_edits[0]!;
      expect(edit.dry_run).toBe(true);
      if (!path.includes('vote')) expect(edit.id).toBeNull();
    }
    const edit = (
      await api<SuggestResponse>(
        f,
        'POST',
        `/places/${id}/suggest/edit`,
        { name: 'Dry Name', dry_run: 'true' },
        author.token,
      )
    ).body.suggested_edits[0]!;
    expect(edit.changes).toEqual([
      { fsq_place_id: id, field: 'name', from: placeBefore.name, to: 'Dry Name' },
    ]);
    expect(await Promise.all(tables.map((t) => count(f, t)))).toEqual(before);
    expect(await place(id)).toEqual(placeBefore);
    // A dry run still refuses bad input.
    const bad = await api(f, 'POST', `/places/${id}/suggest/edit`, { latitude: '123', dry_run: 'true' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/latitude/);
  });

  it('a dry run of a trusted author’s edit shows it would be applied, and applies nothing', async () => {
    const deps = {
      ...f.places.deps,
      edits: { ...f.places.deps.edits, autoApply: 0.5000001, priorMean: 0.5 },
    };
    const author = await oauthUser(f);
    // With the auto-apply threshold at the prior mean, any author with one accepted edit applies at once.
    const seed = await suggestEdit(deps, author.auth, { fsq_place_id: freshPlace(), name: 'Seed Edit' });
    const v = [await oauthUser(f), await oauthUser(f)];
    for (const voter of v)
      await vote(deps, voter.auth, { edit_id: seed.suggested_edits[0]!.id!, vote: 'approve' });
    const id = freshPlace();
    const dry = await suggestEdit(deps, author.auth, {
      fsq_place_id: id,
      name: 'Would Apply',
      dry_run: true,
    });
    expect(dry.suggested_edits[0]).toMatchObject({
      status: 'accepted',
      resolution: { kind: 'trusted' },
      dry_run: true,
    });
    expect((await place(id)).name).not.toBe('Would Apply');
  });
});

describe('validation: a 4xx naming the parameter', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['edit', { latitude: '91' }, /^Invalid latitude/],
    ['edit', { longitude: 'east' }, /^Invalid longitude/],
    ['edit', { name: '   ' }, /^Invalid name/],
    ['edit', { name: 'x'.repeat(201) }, /^Invalid name: at most 200/],
    ['edit', { description: 'd'.repeat(301) }, /^Invalid description: at most 300/],
    ['edit', { tel: 'call me' }, /^Invalid tel/],
    ['edit', { tel: '12' }, /^Invalid tel/],
    ['edit', { website: 'ftp://example.com' }, /^Invalid website/],
    ['edit', { website: 'not a url' }, /^Invalid website/],
    ['edit', { email: 'nobody@' }, /^Invalid email/],
    ['edit', { country_code: 'XX' }, /^Invalid country_code/],
    ['edit', { country_code: 'France' }, /^Invalid country_code/],
    ['edit', { hours: '8,0800,1700' }, /^Invalid hours.*day must be 1/],
    ['edit', { hours: '1,0800,0700' }, /^Invalid hours.*after the start/],
    ['edit', { hours: '1,2500,2600' }, /^Invalid hours/],
    ['edit', { hours: '1,0800' }, /^Invalid hours/],
    [
      'edit',
      { add_fsq_category_ids: 'ffffffffffffffffffffffff' },
      /^Invalid add_fsq_category_ids: no category/,
    ],
    ['edit', { remove_fsq_category_ids: 'ffffffffffffffffffffffff' }, /^Invalid remove_fsq_category_ids/],
    ['edit', { chains: 'ffffffffffffffffffffffff' }, /^Invalid chains: no chain/],
    ['edit', { chains: '', add_fsq_chain_ids: 'x' }, /chains and add_fsq_chain_ids cannot be used together/],
    ['edit', { unset_fields: 'name' }, /^Invalid unset_fields: "name" cannot be cleared/],
    ['edit', { tel: '+331234567', unset_fields: 'tel' }, /tel and unset_fields cannot be used together/],
    ['edit', { instagram: 'no spaces please' }, /^Invalid instagram/],
    ['edit', { facebook_url: 'https://example.com/page' }, /^Invalid facebook_url/],
    ['edit', { menu: 'https://example.com/menu' }, /^Invalid menu: this server does not store menus/],
    ['edit', { nmae: 'Typo' }, /^Invalid nmae: this endpoint takes no parameter "nmae"/],
    ['edit', {}, /the edit changes nothing/],
    ['edit', { dry_run: 'perhaps', name: 'X' }, /^Invalid dry_run/],
    ['remove', {}, /^Invalid reason: reason is required/],
    ['remove', { reason: 'BORING' }, /^Invalid reason: "BORING" is not one of/],
    ['remove', { reason: 'NOT_CLOSED' }, /^Invalid reason: the place is not marked closed/],
    ['flag', {}, /^Invalid fields: fields is required/],
    ['flag', { fields: 'colour' }, /^Invalid fields: "colour"/],
    ['flag', { problem: 'ugly' }, /^Invalid problem/],
    ['merge', {}, /^Invalid duplicate_fsq_place_ids/],
    ['merge', { duplicate_fsq_place_ids: 'nosuchplace' }, /^Invalid duplicate_fsq_place_ids: no place has/],
    ['merge', { duplicate_fsq_place_ids: '$$' }, /^Invalid duplicate_fsq_place_ids/],
  ];
  it.each(cases)('%s %j', async (kind, query, message) => {
    const id = ids[ids.length - 1]!;
    const res = await api(f, 'POST', `/places/${id}/suggest/${kind}`, query);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it.each([
    [{ latitude: '1', longitude: '1' }, /^Invalid name: name is required/],
    [{ name: 'No Position' }, /^Invalid latitude: latitude is required/],
    [{ name: 'X', latitude: '1', longitude: '200' }, /^Invalid longitude/],
    [{ name: 'X', latitude: '1', longitude: '1', categories: 'nope' }, /^Invalid categories: no category/],
    [{ name: 'X', latitude: '1', longitude: '1', parent_id: 'abc' }, /^Invalid parent_id/],
  ])('new place %j', async (query, message) => {
    const res = await api(f, 'POST', '/places/suggest/place', query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it.each([
    ['/places/suggest/status', { limit: '51' }, /^Invalid limit/],
    ['/places/suggest/status', { suggested_edit_ids: 'abc' }, /^Invalid suggested_edit_ids/],
    ['/places/suggest/review', { ne: '1,1' }, /^Invalid sw/],
    ['/places/suggest/review', { ll: '1,1', near: 'Paris' }, /ll and near cannot be used together/],
    ['/places/suggest/review', { near: 'Atlantis Qqq' }, /^Invalid near/],
    ['/places/suggest/review', { radius: '5' }, /^Invalid radius/],
  ])('%s %j', async (path, query, message) => {
    const res = await api(f, 'GET', path, query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('removals, flags, merges and new places', () => {
  it('CLOSED sets date_closed; DOESNT_EXIST takes the place out (404) and the history still answers', async () => {
    const closedId = freshPlace();
    const goneId = freshPlace();
    const [author, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const closed = await api<SuggestResponse>(
      f,
      'POST',
      `/places/${closedId}/suggest/remove`,
      { reason: 'closed', comment: 'Shut for good' },
      author.token,
    );
    expect(closed.body.suggested_edits[0]).toMatchObject({
      suggested_edit_type: 'remove',
      details: { reason: 'CLOSED', comment: 'Shut for good' },
      changes: [{ field: 'date_closed', from: null, to: '2025-06-17' }],
    });
    const gone = await api<SuggestResponse>(
      f,
      'POST',
      `/places/${goneId}/suggest/remove`,
      { reason: 'DOESNT_EXIST' },
      author.token,
    );
    for (const e of [closed, gone]) {
      await castVote(v1.token, e.body.suggested_edits[0]!.id!, 'approve');
      await castVote(v2.token, e.body.suggested_edits[0]!.id!, 'approve');
    }
    expect((await place(closedId)).date_closed).toBe('2025-06-17');
    expect((await api(f, 'GET', `/places/${goneId}`)).status).toBe(404);
    const history = await api<{ history: { field: string; to: unknown }[] }>(
      f,
      'GET',
      `/places/${goneId}/history`,
    );
    expect(history.body.history).toMatchObject([{ field: 'removed', to: true }]);
  });

  it('a flag is a report: accepted, it changes no field', async () => {
    const id = freshPlace();
    const [author, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const before = await place(id);
    const flag = await api<SuggestResponse>(
      f,
      'POST',
      `/places/${id}/suggest/flag`,
      { fields: 'latitude,longitude', problem: 'mislocated' },
      author.token,
    );
    expect(flag.body.suggested_edits[0]).toMatchObject({
      details: { fields: ['latitude', 'longitude'], problem: 'mislocated' },
      changes: [],
    });
    await castVote(v1.token, flag.body.suggested_edits[0]!.id!, 'approve');
    const done = await castVote(v2.token, flag.body.suggested_edits[0]!.id!, 'approve');
    expect(done.body.suggested_edits[0]!.status).toBe('accepted');
    expect(await place(id)).toEqual(before);
  });

  it('a merge takes the duplicates out; a new place is created with its own id', async () => {
    const keep = freshPlace();
    const dup = freshPlace();
    const [author, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const merge = await api<SuggestResponse>(
      f,
      'POST',
      `/places/${keep}/suggest/merge`,
      { duplicate_fsq_place_ids: dup },
      author.token,
    );
    expect(merge.body.suggested_edits[0]!.changes).toEqual([
      { fsq_place_id: dup, field: 'merged_into', from: null, to: keep },
    ]);
    await castVote(v1.token, merge.body.suggested_edits[0]!.id!, 'approve');
    await castVote(v2.token, merge.body.suggested_edits[0]!.id!, 'approve');
    expect((await api(f, 'GET', `/places/${dup}`)).status).toBe(404);
    expect((await api(f, 'GET', `/places/${keep}`)).status).toBe(200);

    const created = await api<SuggestPlaceResponse>(
      f,
      'POST',
      '/places/suggest/place',
      {
        name: 'Cairn Bakery',
        latitude: '48.8601',
        longitude: '2.3401',
        address: '1 Rue de Rivoli',
        country_code: 'fr',
        hours: '1,0700,1900;2,0700,1900',
        description: 'Fresh bread',
      },
      author.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.new_place_suggestion).toMatchObject({
      suggested_edit_type: 'new_place',
      status: 'pending',
      fsq_place_id: null,
    });
    expect(created.body.matched_fsq_place).toBeNull();
    const editId = created.body.new_place_suggestion.id!;
    await castVote(v1.token, editId, 'approve');
    const applied = (await castVote(v2.token, editId, 'approve')).body.suggested_edits[0]!;
    expect(applied.created_fsq_place_id).toMatch(/^[0-9a-f]{24}$/);
    const details = await api<Record<string, unknown>>(f, 'GET', `/places/${applied.created_fsq_place_id}`, {
      fields: 'name,location,hours,description',
    });
    expect(details.body).toMatchObject({
      name: 'Cairn Bakery',
      location: { address: '1 Rue de Rivoli', country: 'FR' },
      description: 'Fresh bread',
      hours: {
        regular: [
          { day: 1, open: '0700', close: '1900' },
          { day: 2, open: '0700', close: '1900' },
        ],
      },
    });
    // The same place again is matched to the one just created.
    const again = await api<SuggestPlaceResponse>(
      f,
      'POST',
      '/places/suggest/place',
      { name: 'Cairn Bakery', latitude: '48.8602', longitude: '2.3402', dry_run: 'true' },
      author.token,
    );
    expect(again.body.matched_fsq_place).toEqual({
      fsq_place_id: applied.created_fsq_place_id,
      name: 'Cairn Bakery',
    });
  });
});

describe('status, review queue and accuracy', () => {
  it('status lists the caller’s own edits, or those named; review lists others’ pending edits by place', async () => {
    const id = freshPlace();
    const [author, reviewer] = [await oauthUser(f), await oauthUser(f)];
    const e1 = await suggest(author.token, id, { name: 'Queue One' });
    f.clock.advance(1000);
    const e2 = await suggest(author.token, id, { tel: '+15555550123' });
    const mine = await editStatus(f.places.deps, author.auth, {});
    expect(mine.suggested_edits.map((e) => e.id)).toEqual([e2.id, e1.id]);
    const named = await api<{ suggested_edits: EditView[] }>(
      f,
      'GET',
      '/places/suggest/status',
      { suggested_edit_ids: `${e1.id},00000000-0000-4000-8000-000000000000` },
      reviewer.token,
    );
    expect(named.body.suggested_edits.map((e) => [e.id, e.own])).toEqual([[e1.id, false]]);
    expect((await editStatus(f.places.deps, author.auth, { limit: 0 })).suggested_edits).toEqual([]);

    const p = await place(id);
    const loc = await api<{ fsq_place_id: string; latitude: number; longitude: number }>(
      f,
      'GET',
      `/places/${id}`,
      { fields: 'fsq_place_id,latitude,longitude' },
    );
    const ll = `${loc.body.latitude},${loc.body.longitude}`;
    const queue = await api<{
      venues: { fsq_place_id: string; venue_name: string; woe_count: number; woes: EditView[] }[];
    }>(f, 'GET', '/places/suggest/review', { ll, radius: '100', limit: '50' }, reviewer.token);
    expect(queue.status).toBe(200);
    const venue = queue.body.venues.find((v) => v.fsq_place_id === id)!;
    expect(venue).toMatchObject({ venue_name: p.name, woe_count: 2 });
    expect(venue.woes.map((w) => w.id).sort()).toEqual([e1.id, e2.id].sort());
    // Not the author's own queue; and an edit leaves the reviewer's queue once voted on (even skipped).
    const authorQueue = await reviewQueue(f.places.deps, author.auth, { ll, radius: 100 });
    expect(authorQueue.venues.find((v) => v.fsq_place_id === id)).toBeUndefined();
    await castVote(reviewer.token, e1.id!, 'skip');
    const after = await reviewQueue(f.places.deps, reviewer.auth, { ll, radius: 100 });
    expect(after.venues.find((v) => v.fsq_place_id === id)?.woe_count).toBe(1);
    // Far away: nothing.
    const far = await reviewQueue(f.places.deps, reviewer.auth, { ne: '-40,100', sw: '-41,99' });
    expect(far.venues).toEqual([]);
  });

  it('accuracy rises with accepted edits and agreeing votes; per organization it starts from the overall figure', async () => {
    const author = await oauthUser(f);
    const fresh = await contributorAccuracy(f.places.deps, author.auth);
    expect(fresh).toMatchObject({
      accuracy: 0.5,
      organization_accuracy: 0.5,
      author_weight: 0.5,
      applies_immediately: false,
    });
    const voters = [await oauthUser(f), await oauthUser(f)];
    const edit = await suggest(author.token, freshPlace(), { name: 'Accurate' });
    for (const v of voters) await castVote(v.token, edit.id!, 'approve');
    const after = await contributorAccuracy(f.places.deps, author.auth);
    expect(after.accuracy).toBeCloseTo(3 / 5, 3);
    expect(after.overall.edits).toMatchObject({ accepted: 1, rejected: 0 });
    const voter = await contributorAccuracy(f.places.deps, voters[0]!.auth);
    expect(voter.accuracy).toBeCloseTo(2.5 / 4.5, 3);
    expect(voter.overall.votes).toMatchObject({ agreed: 1, disagreed: 0 });

    // The same person through another organization: their overall record is the prior there.
    const elsewhere = { ...author.auth, organizationId: 'another-org' };
    const there = await contributorAccuracy(f.places.deps, elsewhere);
    expect(there.accuracy).toBeCloseTo(0.6, 3);
    expect(there.organization_accuracy).toBeCloseTo(0.6, 3);
    expect(there.in_organization.edits.accepted).toBe(0);
  });
});

describe('rollback', () => {
  it('restores the previous values, records it, and counts against the author', async () => {
    const id = freshPlace();
    const [author, later, v1, v2] = [
      await oauthUser(f),
      await oauthUser(f),
      await oauthUser(f),
      await oauthUser(f),
    ];
    const before = await place(id);
    const edit = await suggest(author.token, id, { name: 'Vandal Name', tel: '+4412345678' });
    await castVote(v1.token, edit.id!, 'approve');
    await castVote(v2.token, edit.id!, 'approve');
    const accuracyBefore = (await contributorAccuracy(f.places.deps, author.auth)).accuracy;
    // A later accepted edit of the same field blocks a plain rollback.
    const second = await suggest(later.token, id, { name: 'Later Name' });
    await castVote(v1.token, second.id!, 'approve');
    await castVote(v2.token, second.id!, 'approve');
    await expect(rollbackEdit(f.places.deps, edit.id!)).rejects.toThrow(
      new RegExp(
        `Cannot roll back ${edit.id}: later accepted edit\\(s\\) changed the same data: ${second.id} \\(name`,
      ),
    );
    expect((await place(id)).name).toBe('Later Name');
    // --cascade rolls back the later edit first, then this one.
    const done = await rollbackEdit(f.places.deps, edit.id!, { cascade: true, reason: 'vandalism' });
    expect(done.rolled_back).toEqual([second.id, edit.id]);
    const restored = await place(id);
    expect(restored.name).toBe(before.name);
    expect(restored.tel).toEqual(before.tel);
    const [status] = (await editStatus(f.places.deps, author.auth, { suggested_edit_ids: edit.id! }))
      .suggested_edits;
    expect(status).toMatchObject({ status: 'rolled_back', rolled_back: { reason: 'vandalism' } });
    const history = await placeHistory(f.places.deps, author.auth, { fsq_place_id: id });
    expect(history.history.slice(0, 3)).toMatchObject([
      {
        action: 'rollback',
        edit_id: edit.id,
        attribution: { credential_kind: 'operator', organization_id: null },
      },
      { action: 'rollback', edit_id: edit.id },
      { action: 'rollback', edit_id: second.id, field: 'name', from: 'Later Name', to: 'Vandal Name' },
    ]);
    const accuracyAfter = await contributorAccuracy(f.places.deps, author.auth);
    expect(accuracyAfter.accuracy).toBeLessThan(accuracyBefore);
    expect(accuracyAfter.overall.edits).toMatchObject({ accepted: 0, rolled_back: 1 });
    await expect(rollbackEdit(f.places.deps, edit.id!)).rejects.toThrow(/already rolled back/);
  });

  it('puts back a removed place and takes out a created one; refuses pending edits', async () => {
    const id = freshPlace();
    const [author, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const removal = (
      await api<SuggestResponse>(
        f,
        'POST',
        `/places/${id}/suggest/remove`,
        { reason: 'INAPPROPRIATE' },
        author.token,
      )
    ).body.suggested_edits[0]!;
    await expect(rollbackEdit(f.places.deps, removal.id!)).rejects.toThrow(/is pending; only accepted/);
    await castVote(v1.token, removal.id!, 'approve');
    await castVote(v2.token, removal.id!, 'approve');
    expect((await api(f, 'GET', `/places/${id}`)).status).toBe(404);
    await rollbackEdit(f.places.deps, removal.id!);
    expect((await api(f, 'GET', `/places/${id}`)).status).toBe(200);

    // The rollback cost the author and both voters trust: a fresh author and fresh voters for the next edit.
    const [creator, v3, v4] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const created = (
      await api<SuggestPlaceResponse>(
        f,
        'POST',
        '/places/suggest/place',
        { name: 'Ephemeral', latitude: '10', longitude: '10' },
        creator.token,
      )
    ).body.new_place_suggestion;
    await castVote(v3.token, created.id!, 'approve');
    const applied = (await castVote(v4.token, created.id!, 'approve')).body.suggested_edits[0]!;
    expect((await api(f, 'GET', `/places/${applied.created_fsq_place_id}`)).status).toBe(200);
    await rollbackEdit(f.places.deps, created.id!);
    expect((await api(f, 'GET', `/places/${applied.created_fsq_place_id}`)).status).toBe(404);
  });
});

describe('cairn edits rollback', () => {
  it('rolls back, reports, and refuses with the reason when it cannot', async () => {
    const id = freshPlace();
    const [author, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const before = await place(id);
    const edit = await suggest(author.token, id, { name: 'CLI Name' });
    await castVote(v1.token, edit.id!, 'approve');
    await castVote(v2.token, edit.id!, 'approve');
    const cairn = (argv: string[]) => runCommand(['edits', 'rollback', ...argv], { places: f.places });
    const done = await cairn([edit.id!, '--reason', 'spam']);
    expect(done).toEqual({ code: 0, stdout: `Rolled back suggested edit ${edit.id}\n`, stderr: '' });
    expect((await place(id)).name).toBe(before.name);
    const again = await cairn([edit.id!]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already rolled back/);
    const none = await cairn([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/exactly one/);
  });
});

describe('OpenAPI', () => {
  it('describes the suggested-edit endpoints', async () => {
    const res = await fetch(`${f.baseUrl}/openapi/places.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    for (const path of [
      '/places/{fsq_place_id}/suggest/edit',
      '/places/{fsq_place_id}/suggest/remove',
      '/places/{fsq_place_id}/suggest/flag',
      '/places/{fsq_place_id}/suggest/merge',
      '/places/suggest/place',
      '/places/suggest/status',
      '/places/suggest/review',
      '/places/suggest/{edit_id}/vote',
      '/places/{fsq_place_id}/history',
    ]) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
  });
});

describe('concurrent votes', () => {
  it('resolve an edit once: one application, one history, later votes refused', async () => {
    const id = freshPlace();
    const author = await oauthUser(f);
    const voters = [await oauthUser(f), await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const edit = await suggest(author.token, id, { name: 'Raced Name' });
    const results = await Promise.all(voters.map((v) => castVote(v.token, edit.id!, 'approve')));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const { rows } = await f.deps.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM places_history WHERE edit_id = $1 AND action = 'apply'",
      [edit.id],
    );
    expect(rows[0]!.n).toBe(1);
    expect((await place(id)).name).toBe('Raced Name');
  });
});

describe('attribution', () => {
  it('the place history shows another organization an opaque, stable contributor handle and no ids', async () => {
    const id = freshPlace();
    const [author, v1, v2] = [await oauthUser(f), await oauthUser(f), await oauthUser(f)];
    const edit = await suggest(author.token, id, { website: 'https://history.example.com/' });
    await castVote(v1.token, edit.id!, 'approve');
    expect((await castVote(v2.token, edit.id!, 'approve')).body.suggested_edits[0]!.status).toBe('accepted');

    const own = await api<{ history: { attribution: Record<string, unknown> }[] }>(
      f,
      'GET',
      `/places/${id}/history`,
    );
    const mine = own.body.history[0]!.attribution;
    expect(mine).toEqual({
      contributor: expect.stringMatching(/^ctb_[A-Za-z0-9_-]{22}$/),
      organization_id: f.orgId,
      app_id: author.appId,
      user_id: author.auth.userId,
      credential_kind: 'oauth_user',
    });

    const other = await createOrganization(f.identity.deps, 'Other Org');
    const { secret } = await createServiceKey(f.identity.deps, { organizationId: other.id });
    const theirs = await fetch(`${f.baseUrl}/places/${id}/history`, {
      headers: { authorization: `Bearer ${secret}`, 'x-places-api-version': '2025-06-17' },
    });
    expect(theirs.status).toBe(200);
    const text = await theirs.text();
    const seen = (JSON.parse(text) as { history: { attribution: Record<string, unknown> }[] }).history;
    expect(seen[0]!.attribution).toEqual({ contributor: mine.contributor, credential_kind: 'oauth_user' });
    for (const leaked of [f.orgId, author.appId, `"user_id"`, `"organization_id"`, `"app_id"`]) {
      expect(text).not.toContain(leaked);
    }
    expect(text).not.toMatch(new RegExp(`\\b${author.auth.userId}\\b`));

    // Stable: the same contributor has the same handle on another edit, and after a restart (a new places
    // service on the same database); another contributor has another handle.
    const next = await suggest(author.token, id, { email: 'again@example.com' });
    await castVote(v1.token, next.id!, 'approve');
    await castVote(v2.token, next.id!, 'approve');
    const restarted = createPlaces(f.deps, { authenticate: f.identity.authenticate });
    await restarted.start();
    const again = await placeHistory(restarted.deps, await f.identity.resolveBearer(secret), {
      fsq_place_id: id,
    });
    await restarted.stop();
    expect(new Set(again.history.map((h) => h.attribution.contributor))).toEqual(new Set([mine.contributor]));
    const voterHandle = await placeHistory(f.places.deps, v1.auth, { fsq_place_id: id });
    expect(voterHandle.history[0]!.attribution.contributor).toBe(mine.contributor);
    const { contributorHandle } = await import('../src/edits/handles.ts');
    expect(await contributorHandle(f.places.deps, `user:${v1.auth.userId}`)).not.toBe(mine.contributor);
  });

  it('every stored edit and vote records organization, app, user and credential kind', async () => {
    const oauth = await oauthUser(f);
    const managed = await managedUser(f);
    const key = await serviceKeyCaller(f);
    const byOauth = await suggest(oauth.token, freshPlace(), { name: 'From OAuth' });
    const byKey = await suggest(key.token, freshPlace(), { name: 'From Key' });
    await castVote(managed.token, byOauth.id!, 'approve');
    await castVote(key.token, byOauth.id!, 'reject');
    await castVote(oauth.token, byKey.id!, 'approve');

    const { rows: edits } = await f.deps.db.query<Record<string, unknown>>(
      'SELECT id, contributor, organization_id, app_id, user_id, credential_kind, credential_id FROM places_edits',
    );
    const { rows: votes } = await f.deps.db.query<Record<string, unknown>>(
      'SELECT edit_id, contributor, organization_id, app_id, user_id, credential_kind, credential_id FROM places_edit_votes',
    );
    for (const row of [...edits, ...votes]) {
      expect(row.organization_id).toBe(f.orgId);
      expect(row.credential_id).toEqual(expect.any(String));
      expect(['service_key', 'managed_user', 'oauth_user']).toContain(row.credential_kind);
      if (row.credential_kind === 'service_key') {
        expect(row).toMatchObject({ user_id: null, contributor: `organization:${f.orgId}` });
      } else {
        expect(row.user_id).toEqual(expect.any(Number));
        expect(row.contributor).toBe(`user:${row.user_id}`);
      }
      if (row.credential_kind === 'oauth_user') expect(row.app_id).toEqual(expect.any(String));
    }
    expect(edits.find((e) => e.id === byOauth.id)).toMatchObject({
      credential_kind: 'oauth_user',
      user_id: oauth.auth.userId,
      app_id: oauth.appId,
      credential_id: oauth.auth.credentialId,
    });
    expect(votes.filter((v) => v.edit_id === byOauth.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ credential_kind: 'managed_user', user_id: managed.auth.userId }),
        expect.objectContaining({
          credential_kind: 'service_key',
          user_id: null,
          credential_id: key.auth.credentialId,
        }),
      ]),
    );
  });
});
