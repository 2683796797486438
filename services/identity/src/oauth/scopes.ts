/**
 * The scopes of a third-party access token (RFC 6749 §3.3), named after what the person consented to. The
 * authorization endpoint asks for them through the seed's `mode` parameter, not `scope`: every grant has
 * `places` (the places API as the person), and `mode=placemaker` adds `placemaker` (open the place editor,
 * suggest edits and vote as the person).
 */
export const SCOPE_PLACES = 'places';
export const SCOPE_PLACEMAKER = 'placemaker';
export const SCOPES_SUPPORTED = [SCOPE_PLACES, SCOPE_PLACEMAKER];

/** The space-separated scope of a token issued with or without the placemaker permission. */
export function scopeOf(placemaker: boolean): string {
  return placemaker ? `${SCOPE_PLACES} ${SCOPE_PLACEMAKER}` : SCOPE_PLACES;
}
