import type { AuthContext } from '@cairn/kit';
import type { PlacesDeps } from '../deps.ts';
import type { ApiParams } from '../edits/params.ts';
import { attributionOf } from '../edits/types.ts';
import { activityOf } from '../store/outcomes.ts';
import { authorWeight, NO_OUTCOMES, type Outcomes } from './accuracy.ts';
import { isOrganizationControlled } from './independence.ts';
import { loadTrust } from './trust.ts';

export interface OutcomeCounts {
  edits: { accepted: number; rejected: number; rolled_back: number; pending: number; stale: number };
  votes: { agreed: number; disagreed: number; pending: number; skipped: number };
}

export interface ContributorAccuracy {
  /** "user:<id>", or "organization:<id>" for a service key. */
  contributor: string;
  credential_kind: string;
  organization_id: string;
  app_id: string | null;
  user_id: number | null;
  /** Over everything the contributor did, in every organization. */
  accuracy: number;
  /** Within the calling organization: what weighs this contributor's edits and votes made through it. */
  organization_accuracy: number;
  /** The weight of this contributor's own approval on a new edit, and the quorum it counts towards. */
  author_weight: number;
  accept_quorum: number;
  /** Whether this contributor's edits are applied without votes (never for a service key or managed user). */
  applies_immediately: boolean;
  overall: OutcomeCounts;
  in_organization: OutcomeCounts;
}

const round = (n: number) => Math.round(n * 1e4) / 1e4;

/**
 * The caller's own accuracy figures, for the editing UI. Takes no parameters; the third argument is there so
 * that every edit function has the same shape.
 */
export async function contributorAccuracy(
  deps: PlacesDeps,
  auth: AuthContext,
  _params: ApiParams = {},
): Promise<ContributorAccuracy> {
  const who = attributionOf(auth);
  const trust = await loadTrust(deps.db, deps.edits, [who.contributor]);
  const record = trust.record(who.contributor);
  const activity = await activityOf(deps.db, who.contributor);
  const counts = (o: Outcomes, rows: typeof activity): OutcomeCounts => {
    const sum = (k: Exclude<keyof (typeof activity)[number], 'organization_id'>) =>
      rows.reduce((n, r) => n + r[k], 0);
    return {
      edits: {
        accepted: o.editsAccepted,
        rejected: o.editsRejected,
        rolled_back: o.editsRolledBack,
        pending: sum('edits_pending'),
        stale: sum('edits_stale'),
      },
      votes: {
        agreed: o.votesAgreed,
        disagreed: o.votesDisagreed,
        pending: sum('votes_pending'),
        skipped: sum('votes_skipped'),
      },
    };
  };
  const within = trust.within(who.contributor, who.organization_id);
  const weight = authorWeight(within, deps.edits);
  return {
    contributor: who.contributor,
    credential_kind: who.credential_kind,
    organization_id: who.organization_id,
    app_id: who.app_id,
    user_id: who.user_id,
    accuracy: round(trust.overall(who.contributor)),
    organization_accuracy: round(within),
    author_weight: round(weight),
    accept_quorum: deps.edits.acceptQuorum,
    applies_immediately: !isOrganizationControlled(who) && weight + 1e-9 >= deps.edits.acceptQuorum,
    overall: counts(record.all, activity),
    in_organization: counts(
      record.byOrganization.get(who.organization_id) ?? NO_OUTCOMES,
      activity.filter((r) => r.organization_id === who.organization_id),
    ),
  };
}
