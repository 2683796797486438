import { Type } from 'typebox';

/** Route schemas: the OpenAPI description of each endpoint. Values are checked by search/params.ts. */
const text = (description: string) =>
  Type.Optional(Type.String({ description, 'x-message': 'must be given once, as text' }));

export const PlacesHeaders = Type.Object({
  'x-places-api-version': Type.String({ description: 'API version; the one version is 2025-06-17' }),
});

export const SearchQuery = Type.Object({
  query: text('Text to match against names, categories and chains'),
  ll: text('Latitude,longitude to search around, e.g. 40.7484,-73.9857'),
  radius: text('Metres around ll or near, 0–100000; default 22000 around ll'),
  fsq_category_ids: text('Comma-separated category ids; a category includes its descendants'),
  fsq_chain_ids: text('Comma-separated chain ids'),
  exclude_fsq_chain_ids: text('Chains to leave out (not with exclude_all_chains)'),
  exclude_all_chains: text('true leaves out every place that belongs to a chain'),
  fields: text('Comma-separated fields to return; default: every Pro field'),
  min_price: text('1–4'),
  max_price: text('1–4'),
  open_at: text('DOWTHHMM local time, e.g. 1T2130 (Monday 21:30); not with open_now'),
  open_now: text('true: only places open now, in their own time zone; not with open_at'),
  tel_format: text('NATIONAL or E164'),
  ne: text('North-east corner of a rectangle, with sw'),
  sw: text('South-west corner of a rectangle, with ne'),
  near: text('A city, e.g. "Chicago, IL"; resolved against the GeoNames gazetteer'),
  sort: text('RELEVANCE (default), RATING, DISTANCE or POPULARITY'),
  limit: text('1–50, default 10'),
  cursor: text('The next page, from the Link header of the previous one'),
});

export const DetailsQuery = Type.Object({
  fields: text('Comma-separated fields to return; default: every Pro field'),
  tel_format: text('NATIONAL or E164'),
});

/** The path parameter of a place, matched only for the id shape (`PLACE_ID`, in any case). */
export const PLACE_ID_PARAM = ':fsq_place_id([0-9a-fA-F]{24})';

export const DetailsParams = Type.Object({ fsq_place_id: Type.String({ description: 'The place id' }) });

export const AutocompleteQuery = Type.Object({
  query: Type.Optional(
    Type.String({ description: 'At least 3 characters', 'x-message': 'must be given once, as text' }),
  ),
  ll: text('Bias suggestions towards this point'),
  radius: text('Bias radius in metres (default 5000)'),
  types: text('Comma list of place, search, geo'),
  bias: text('Accepted for compatibility'),
  session_token: text('Accepted for compatibility'),
  limit: text('1–50, default 10'),
  fields: text('Fields of the suggested places'),
});

export const MatchQuery = Type.Object({
  name: Type.Optional(
    Type.String({ description: 'The business name (required)', 'x-message': 'must be given once, as text' }),
  ),
  address: text('Street address'),
  city: text('City'),
  state: text('State or region'),
  postal_code: text('Postal code'),
  cc: text('ISO 3166-1 alpha-2 country code'),
  ll: text('Latitude,longitude of the business'),
  fields: text('Fields of the matched place'),
});

const Open = Type.Object({}, { additionalProperties: true });

export const Place = Type.Object(
  {
    fsq_place_id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    latitude: Type.Optional(Type.Number()),
    longitude: Type.Optional(Type.Number()),
    distance: Type.Optional(Type.Integer({ description: 'Metres from ll or the near city' })),
  },
  {
    additionalProperties: true,
    description: 'A place (2025-06-17 shape); only requested fields with a value',
  },
);

export const SearchResponse = Type.Object({ results: Type.Array(Place), context: Open });
export const AutocompleteResponse = Type.Object({ results: Type.Array(Open) });
export const MatchResponse = Type.Object({ place: Place, match_score: Type.Number() });

const ErrorBody = Type.Object({ message: Type.String() }, { description: 'What was wrong with the request' });
export const errorResponses = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };
