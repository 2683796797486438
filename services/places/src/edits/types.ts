import type { AuthContext, CredentialKind } from '@cairn/kit';

/** The kinds of suggestion, as `suggested_edit_type` names them. */
export type EditType = 'edit' | 'remove' | 'flag' | 'merge' | 'new_place' | 'tip';

/**
 * pending: waiting for votes. accepted: applied to the place. rejected: refused by votes, or found stale when
 * it was about to be applied. rolled_back: was accepted, then undone by an operator.
 */
export type EditStatus = 'pending' | 'accepted' | 'rejected' | 'rolled_back';

export type VoteValue = 'approve' | 'reject' | 'skip';
export const VOTE_VALUES: readonly VoteValue[] = ['approve', 'reject', 'skip'];

/** How an edit left `pending`. */
export type Resolution = 'trusted' | 'quorum' | 'votes' | 'stale' | 'rolled_back';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One field of one place: the value seen when the edit was made, and the value it proposes. */
export interface Change {
  /** null for the fields of a place that does not exist yet (new_place). */
  fsq_place_id: string | null;
  field: string;
  from: Json;
  to: Json;
}

/** What an edit says besides its changes. */
export interface EditDetails {
  reason?: string;
  comment?: string;
  problem?: string;
  fields?: string[];
  duplicate_fsq_place_ids?: string[];
}

/** The weighted vote count (weights are trust, 0–1; the author's own weight counts as an approval). */
export interface Tally {
  approve: number;
  reject: number;
  skip: number;
  author_weight: number;
  approve_weight: number;
  reject_weight: number;
  accept_quorum: number;
  reject_quorum: number;
  /** Parties whose approval (rejection) counts: one per organization or person, independent of the edit. */
  counted_approvals: number;
  counted_rejections: number;
  /** Approvals and rejections that weigh nothing: not independent of the edit, or their party already counted. */
  not_counted: number;
  /** An edit by a service key or managed user applies only once an independent party approves it. */
  independent_approval_required: boolean;
}

/** Who made an edit or cast a vote. */
export interface Attribution {
  contributor: string;
  organization_id: string;
  app_id: string | null;
  user_id: number | null;
  credential_kind: CredentialKind;
  credential_id: string;
}

export interface EditRow extends Attribution {
  id: string;
  fsq_place_id: string | null;
  suggested_edit_type: EditType;
  status: EditStatus;
  changes: Change[];
  details: EditDetails;
  latitude: number;
  longitude: number;
  created_at: Date;
  resolved_time: Date | null;
  resolution: Resolution | null;
  resolution_reason: string | null;
  tally: Tally | null;
  rolled_back_time: Date | null;
  rolled_back_reason: string | null;
  created_fsq_place_id: string | null;
  matched_fsq_place_id: string | null;
}

export interface VoteRow extends Attribution {
  edit_id: string;
  vote: VoteValue;
  created_at: Date;
  updated_at: Date;
}

/**
 * A contributor is whoever an outcome is credited to: the user behind a managed-user or OAuth token, or, for
 * a service key (which has no user), its organization as one contributor.
 */
export function contributorOf(auth: AuthContext): string {
  return auth.userId === undefined ? `organization:${auth.organizationId}` : `user:${auth.userId}`;
}

export function attributionOf(auth: AuthContext): Attribution {
  return {
    contributor: contributorOf(auth),
    organization_id: auth.organizationId,
    app_id: auth.appId ?? null,
    user_id: auth.userId ?? null,
    credential_kind: auth.kind,
    credential_id: auth.credentialId,
  };
}
