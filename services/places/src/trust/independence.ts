import type { Attribution } from '../edits/types.ts';

/**
 * Who could have cast an edit or a vote without anyone else (README, "Independent contributors"). An
 * organization mints its service keys and managed users freely and holds their credentials, so all of them
 * are one party, the organization. A person with an account is their own party, whatever app they act through.
 */
export type Actor = Pick<Attribution, 'contributor' | 'organization_id' | 'credential_kind'>;

/** Service keys and managed users: identities an organization creates and drives by itself. */
export const isOrganizationControlled = (a: Actor): boolean => a.credential_kind !== 'oauth_user';

export function partyOf(a: Actor): string {
  return isOrganizationControlled(a) ? `organization:${a.organization_id}` : a.contributor;
}

/**
 * Whether a vote can count towards an edit's quorum: the voter is another party than the author, and neither
 * side is an organization's own identity judging something made through that organization — its service keys
 * and managed users do not count on edits that came through its apps, and the tokens its apps hold do not
 * count on edits by its service keys and managed users.
 */
export function isIndependent(edit: Actor, voter: Actor): boolean {
  if (partyOf(edit) === partyOf(voter)) return false;
  if (isOrganizationControlled(edit) && voter.organization_id === edit.organization_id) return false;
  if (isOrganizationControlled(voter) && edit.organization_id === voter.organization_id) return false;
  return true;
}
