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

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
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
  const json = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok)
    throw new ApiError(response.status, json.message ?? `Request failed (${response.status})`);
  return json as T;
}

export const api = {
  me: () => call<Me>('GET', '/me'),
  search: (query: Record<string, string>) => call<SearchResult>('GET', '/search', query),
  place: (id: string) => call<Place>('GET', `/places/${encodeURIComponent(id)}`),
};
