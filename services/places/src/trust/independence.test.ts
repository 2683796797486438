import type { CredentialKind } from '@cairn/kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EDITS_CONFIG as config } from '../config.ts';
import type { EditRow, VoteRow, VoteValue } from '../edits/types.ts';
import type { Outcomes } from './accuracy.ts';
import { decideTally, tallyOf } from './tally.ts';
import { type ContributorRecord, TrustTable } from './trust.ts';

/**
 * Sybil resistance over random mixes: organizations with service keys, managed users and people acting
 * through the organizations' apps, each with a random record (trusted veterans included), voting in any
 * order. No organization gets an edit accepted with its own identities alone.
 */
interface Identity {
  contributor: string;
  organization_id: string;
  credential_kind: CredentialKind;
  outcomes: Outcomes;
}

const outcomes = fc.record({
  editsAccepted: fc.nat(40),
  editsRejected: fc.nat(10),
  editsRolledBack: fc.nat(2),
  votesAgreed: fc.nat(60),
  votesDisagreed: fc.nat(20),
});

let serial = 0;
/** An identity of organization `org`: its service key (all keys are one contributor), a managed user, or a
 *  person acting through one of its apps. */
const identityOf = (org: string) =>
  fc
    .record({
      kind: fc.constantFrom<CredentialKind>('service_key', 'managed_user', 'oauth_user'),
      outcomes,
    })
    .map(
      ({ kind, outcomes }): Identity => ({
        contributor: kind === 'service_key' ? `organization:${org}` : `user:${++serial}`,
        organization_id: org,
        credential_kind: kind,
        outcomes,
      }),
    );

function trustOf(identities: readonly Identity[]): TrustTable {
  const records = new Map<string, ContributorRecord>();
  for (const i of identities)
    records.set(i.contributor, {
      all: i.outcomes,
      byOrganization: new Map([[i.organization_id, i.outcomes]]),
    });
  return new TrustTable(records, config);
}

const editBy = (author: Identity): EditRow =>
  ({
    id: 'e',
    status: 'pending',
    contributor: author.contributor,
    organization_id: author.organization_id,
    credential_kind: author.credential_kind,
  }) as EditRow;

const voteBy = (voter: Identity, vote: VoteValue): VoteRow =>
  ({
    edit_id: 'e',
    vote,
    contributor: voter.contributor,
    organization_id: voter.organization_id,
    credential_kind: voter.credential_kind,
  }) as VoteRow;

/** Counts the votes one at a time, as the service does; the first decision ends the edit. */
function resolve(author: Identity, ballots: readonly [Identity, VoteValue][], trust: TrustTable) {
  const edit = editBy(author);
  const cast: VoteRow[] = [];
  let decision = decideTally(tallyOf(edit, cast, trust, config), config);
  for (const [voter, value] of ballots) {
    if (decision || voter.contributor === author.contributor) continue;
    const i = cast.findIndex((v) => v.contributor === voter.contributor);
    if (i >= 0) cast.splice(i, 1);
    cast.push(voteBy(voter, value));
    decision = decideTally(tallyOf(edit, cast, trust, config), config, value);
  }
  return decision;
}

const ballot = (voters: fc.Arbitrary<Identity>) =>
  fc.tuple(voters, fc.constantFrom<VoteValue>('approve', 'approve', 'reject', 'skip'));

describe('no organization reaches a quorum with its own identities alone', () => {
  it('an edit by an organization’s service key or managed user, voted on only by that organization’s identities (its keys, managed users and the tokens its apps hold), is never accepted, however trusted they are', () => {
    fc.assert(
      fc.property(
        identityOf('org-a').filter((i) => i.credential_kind !== 'oauth_user'),
        fc.array(ballot(identityOf('org-a')), { maxLength: 30 }),
        (author, ballots) => {
          const trust = trustOf([author, ...ballots.map(([v]) => v)]);
          expect(resolve(author, ballots, trust)).not.toBe('accept');
        },
      ),
    );
  });

  it('an organization’s service keys and managed users add nothing to an edit made through its apps', () => {
    fc.assert(
      fc.property(
        identityOf('org-a'),
        fc.array(ballot(identityOf('org-a').filter((i) => i.credential_kind !== 'oauth_user')), {
          maxLength: 30,
        }),
        (author, ballots) => {
          const trust = trustOf([author, ...ballots.map(([v]) => v)]);
          const votes = ballots
            .filter(([v]) => v.contributor !== author.contributor)
            .map(([v, value]) => voteBy(v, value));
          const tally = tallyOf(editBy(author), votes, trust, config);
          expect(tally.approve_weight).toBe(tally.author_weight);
          expect(tally.reject_weight).toBe(0);
        },
      ),
    );
  });

  it('in a mix of organizations, each organization counts once: the counted approvals come from distinct independent parties', () => {
    const orgs = ['org-a', 'org-b', 'org-c'];
    fc.assert(
      fc.property(
        fc.constantFrom(...orgs).chain(identityOf),
        fc.array(ballot(fc.constantFrom(...orgs).chain(identityOf)), { maxLength: 40 }),
        (author, ballots) => {
          const trust = trustOf([author, ...ballots.map(([v]) => v)]);
          const decision = resolve(author, ballots, trust);
          if (decision !== 'accept' || author.credential_kind === 'oauth_user') return;
          // Accepted an organization's edit: someone outside that organization approved it.
          expect(
            ballots.some(([v, value]) => value === 'approve' && v.organization_id !== author.organization_id),
          ).toBe(true);
        },
      ),
    );
  });

  it('two newcomers approving through another organization’s app do accept an organization’s edit', () => {
    const none: Outcomes = {
      editsAccepted: 0,
      editsRejected: 0,
      editsRolledBack: 0,
      votesAgreed: 0,
      votesDisagreed: 0,
    };
    const author: Identity = {
      contributor: 'user:1',
      organization_id: 'org-a',
      credential_kind: 'managed_user',
      outcomes: none,
    };
    const people: Identity[] = [2, 3].map((n) => ({
      contributor: `user:${n}`,
      organization_id: 'org-b',
      credential_kind: 'oauth_user',
      outcomes: none,
    }));
    const trust = trustOf([author, ...people]);
    expect(resolve(author, [[people[0]!, 'approve']], trust)).toBeUndefined();
    expect(
      resolve(
        author,
        people.map((p) => [p, 'approve'] as [Identity, VoteValue]),
        trust,
      ),
    ).toBe('accept');
  });
});
