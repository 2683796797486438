/** The editor's one API client: every call goes to /placemakers/api with the session cookie. */
export interface Me {
  user: { user_id: number; display_name: string };
  app: { name: string; organization: string };
}

export interface Place {
  fsq_place_id: string;
  name: string;
  latitude?: number;
  longitude?: number;
  distance?: number;
  location?: {
    address?: string;
    locality?: string;
    region?: string;
    postcode?: string;
    country?: string;
    formatted_address?: string;
  };
  categories?: { fsq_category_id: string; name: string }[];
  tel?: string;
  website?: string;
  [field: string]: unknown;
}

export interface SearchResult {
  results: Place[];
  context?: { geo_bounds?: unknown };
}

/** A suggested edit ("woe" in the real API), with our additions for voters. */
export interface SuggestedEdit {
  id: string;
  fsq_place_id: string | null;
  suggested_edit_type: string;
  created_at: string;
  resolved_time: string | null;
  rolled_back: { time: string; reason: string } | null;
  status: string;
  created_fsq_place_id?: string | null;
  matched_fsq_place_id?: string | null;
  changes?: { field: string; from?: unknown; to?: unknown }[];
  details?: Record<string, unknown> | null;
  votes?: { approve: number; reject: number; skip: number; approve_weight?: number; accept_quorum?: number };
  resolution?: { kind: string; reason: string } | null;
  own?: boolean;
  my_vote?: string | null;
  [field: string]: unknown;
}

export interface Mutation {
  suggested_edits: SuggestedEdit[];
  errors: unknown[];
  [field: string]: unknown;
}

export interface ReviewVenue {
  fsq_place_id: string;
  venue_name: string;
  location?: Place['location'];
  woe_types?: string[];
  woe_count?: number;
  woes: SuggestedEdit[];
}

export interface HistoryEntry {
  id: string;
  edit_id: string;
  suggested_edit_type: string;
  action: string;
  field: string;
  from: unknown;
  to: unknown;
  at: string;
  attribution?: Record<string, unknown>;
}

export interface Accuracy {
  accuracy: number;
  organization_accuracy: number;
  applies_immediately?: boolean;
  accept_quorum?: number;
  [field: string]: unknown;
}

/** An error from the API; `parameter` names the input it is about, so forms can show it beside the field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}

async function call<T>(
  method: string,
  path: string,
  query?: Record<string, string>,
  body?: unknown,
): Promise<T> {
  const url = new URL(`/placemakers/api${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== '') url.searchParams.set(k, v);
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(method === 'GET' ? {} : { 'x-requested-with': 'cairn-editor', 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json().catch(() => ({}))) as { message?: string; parameter?: string };
  if (!response.ok) {
    throw new ApiError(
      response.status,
      json.message ?? `Request failed (${response.status})`,
      json.parameter,
    );
  }
  return json as T;
}

const placePath = (id: string) => `/places/${encodeURIComponent(id)}`;

export type Suggestion = 'edit' | 'remove' | 'flag' | 'merge' | 'tip';

/** A tip as the places API's /places/{id}/tips shows it. */
export interface Tip {
  fsq_tip_id: string;
  created_at: string;
  text: string;
  lang?: string;
  agree_count?: number;
}

/** The basemap the server is configured with (PLACES_MAP_STYLE). */
export type MapStyle =
  | { kind: 'default' }
  | { kind: 'style'; url: string }
  | { kind: 'xyz'; template: string }
  | { kind: 'pmtiles'; url: string };

export const api = {
  me: () => call<Me>('GET', '/me'),
  map: () => call<MapStyle>('GET', '/map'),
  accuracy: () => call<Accuracy>('GET', '/me/accuracy'),
  search: (query: Record<string, string>) => call<SearchResult>('GET', '/search', query),
  place: (id: string) => call<Place>('GET', placePath(id)),
  history: (id: string) => call<{ history: HistoryEntry[] }>('GET', `${placePath(id)}/history`),
  tips: (id: string) => call<Tip[]>('GET', `${placePath(id)}/tips`),
  suggest: (id: string, kind: Suggestion, params: Record<string, string>) =>
    call<Mutation>('POST', `${placePath(id)}/suggest/${kind}`, undefined, params),
  suggestPlace: (params: Record<string, string>) =>
    call<Mutation>('POST', '/suggest/place', undefined, params),
  myEdits: () => call<{ suggested_edits: SuggestedEdit[] }>('GET', '/suggest/status', { limit: '50' }),
  review: (query: Record<string, string>) => call<{ venues: ReviewVenue[] }>('GET', '/suggest/review', query),
  vote: (editId: string, vote: 'approve' | 'reject' | 'skip') =>
    call<Mutation>('POST', `/suggest/${encodeURIComponent(editId)}/vote`, undefined, { vote }),
};
