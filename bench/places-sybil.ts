// Issue 14, finding 3: the options for Sybil-resistant edits, measured against the property "no organization
// gets an edit accepted with identities it controls or mints freely". For each option and each attack of one
// organization, the fewest identities it needs to get a rename of a shared place accepted, fresh and, if
// that fails, after farming a record with edits its own identities approve; and whether the honest flow
// (three people through one third-party app) still applies an edit with today's quorum. Pure computation
// with the service's own trust and tally functions (no database, no timing):
//   npx tsx bench/places-sybil.ts
import { loadavg } from 'node:os';
import type { CredentialKind } from '@cairn/kit';
import { DEFAULT_EDITS_CONFIG as config } from '../services/places/src/config.ts';
import type { EditRow, VoteRow } from '../services/places/src/edits/types.ts';
import {
  addOutcomes,
  authorWeight,
  decide,
  NO_OUTCOMES,
  type Outcomes,
  overallAccuracy,
} from '../services/places/src/trust/accuracy.ts';
import { isIndependent } from '../services/places/src/trust/independence.ts';
import { decideTally, tallyOf } from '../services/places/src/trust/tally.ts';
import { type ContributorRecord, TrustTable } from '../services/places/src/trust/trust.ts';

interface Identity {
  contributor: string;
  organization_id: string;
  credential_kind: CredentialKind;
  outcomes: Outcomes;
}

let serial = 0;
const make = (org: string, kind: CredentialKind): Identity => ({
  contributor: kind === 'service_key' ? `organization:${org}` : `user:${++serial}`,
  organization_id: org,
  credential_kind: kind,
  outcomes: NO_OUTCOMES,
});
const trustOf = (i: Identity) => overallAccuracy(i.outcomes, config);

/** An option decides whether an edit is accepted with these approvals (all cast, in order). */
interface Option {
  name: string;
  accepts(author: Identity, approvers: readonly Identity[], protectedField: boolean): boolean;
}

const sumRule = (weight: (v: Identity) => number, gate?: (v: Identity) => boolean): Option['accepts'] => {
  return (author, approvers) => {
    let total = authorWeight(trustOf(author), config);
    for (const v of approvers) if (!gate || gate(v)) total += weight(v);
    return decide(total, 0, config, 'approve') === 'accept';
  };
};

const ESTABLISHED = 0.66; // two accepted edits and nothing against: (2 + 2) / (2 + 4)

const OPTIONS: Option[] = [
  { name: 'today: trust-weighted sum', accepts: sumRule(trustOf) },
  {
    name: 'managed users’ votes bounded at 0.1',
    accepts: sumRule((v) => (v.credential_kind === 'oauth_user' ? trustOf(v) : Math.min(0.1, trustOf(v)))),
  },
  {
    // Every attack below needs one action per identity, which any daily limit allows.
    name: 'per-contributor rate limit of 1 edit or vote a day',
    accepts: sumRule(trustOf),
  },
  {
    name: 'protected fields need established voters',
    accepts: (author, approvers, protectedField) =>
      sumRule(trustOf, protectedField ? (v) => trustOf(v) >= ESTABLISHED : undefined)(
        author,
        approvers,
        false,
      ),
  },
  {
    name: 'independent parties (chosen)',
    accepts: (author, approvers) => {
      const records = new Map<string, ContributorRecord>();
      for (const i of [author, ...approvers])
        records.set(i.contributor, {
          all: i.outcomes,
          byOrganization: new Map([[i.organization_id, i.outcomes]]),
        });
      const trust = new TrustTable(records, config);
      const edit = { ...author, id: 'e', status: 'pending' } as unknown as EditRow;
      const votes = approvers.map((v) => ({ ...v, edit_id: 'e', vote: 'approve' }) as unknown as VoteRow);
      return decideTally(tallyOf(edit, votes, trust, config), config, 'approve') === 'accept';
    },
  },
  {
    name: 'independent parties + protected fields need an approval from outside the organization',
    accepts: (author, approvers, protectedField) => {
      if (
        protectedField &&
        !approvers.some((v) => v.organization_id !== author.organization_id && isIndependent(author, v))
      )
        return false;
      return OPTIONS.find((o) => o.name.startsWith('independent parties (chosen)'))!.accepts(
        author,
        approvers,
        protectedField,
      );
    },
  },
];

/** One organization's ways to make an author and voters. */
const ATTACKS: { name: string; author: CredentialKind; voters: CredentialKind }[] = [
  { name: 'managed user + managed users (the issue)', author: 'managed_user', voters: 'managed_user' },
  { name: 'service key + managed users', author: 'service_key', voters: 'managed_user' },
  { name: 'managed user + accounts via own app', author: 'managed_user', voters: 'oauth_user' },
  { name: 'account via own app + managed users', author: 'oauth_user', voters: 'managed_user' },
  { name: 'accounts via own app only', author: 'oauth_user', voters: 'oauth_user' },
];

const MAX_IDENTITIES = 50;
const MAX_ROUNDS = 200;

function credit(i: Identity, o: Partial<Outcomes>) {
  i.outcomes = addOutcomes(i.outcomes, { ...NO_OUTCOMES, ...o });
}

/** Fewest voters (fresh), or the farming rounds with 10 voters, for a rename; undefined: never. */
function measure(option: Option, attack: (typeof ATTACKS)[number]) {
  for (let k = 1; k <= MAX_IDENTITIES; k++) {
    const author = make('attacker', attack.author);
    const voters = Array.from({ length: k }, () => make('attacker', attack.voters));
    if (option.accepts(author, voters, true)) return `${k + 1} identities, at once`;
  }
  // Farming: the organization's identities take turns suggesting small edits (not protected) that the
  // others approve; each accepted one is an accepted edit for its author and an agreeing vote for the rest.
  const team = [
    make('attacker', attack.author),
    ...Array.from({ length: 10 }, () => make('attacker', attack.voters)),
  ];
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const author = team[round % team.length]!;
    const others = team.filter((t) => t !== author);
    if (option.accepts(author, others, false)) {
      credit(author, { editsAccepted: 1 });
      for (const o of others) credit(o, { votesAgreed: 1 });
    }
    if (option.accepts(team[0]!, team.slice(1), true)) return `11 identities, after ${round} farming edits`;
  }
  return undefined;
}

function honest(option: Option, protectedField: boolean) {
  const [author, ...voters] = [0, 1, 2].map(() => make('trail-co', 'oauth_user'));
  return option.accepts(author!, voters.slice(0, 1), protectedField)
    ? 'after 1 approval (more permissive)'
    : option.accepts(author!, voters, protectedField)
      ? 'yes, 2 approvals'
      : 'NO';
}

console.log(
  `places Sybil options (quorum ${config.acceptQuorum}, prior ${config.priorMean}, auto-apply ${config.autoApply}); ` +
    `cores ${(await import('node:os')).cpus().length}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
console.log('command: npx tsx bench/places-sybil.ts\n');
for (const option of OPTIONS) {
  console.log(`## ${option.name}`);
  for (const attack of ATTACKS)
    console.log(`  ${attack.name.padEnd(44)} ${measure(option, attack) ?? 'never'}`);
  console.log(`  honest: 3 people, one app, rename           ${honest(option, true)}`);
  console.log(`  honest: 3 people, one app, phone number     ${honest(option, false)}`);
}
