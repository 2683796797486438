import { API_VERSION } from '@cairn/kit';
import { type Static, Type } from 'typebox';
import { PHOTO_CLASSIFICATIONS } from '../media/kinds.ts';
import { PHOTO_SORTS, TIP_FIELDS } from '../media/place-media.ts';
import { TIP_SORTS } from '../media/tips.ts';
import { FIELDS_PATTERN } from '../search/fields.ts';
import { SORTS } from '../search/params.ts';

/**
 * Route schemas: they document each endpoint and Ajv checks the requests against them (routes/validation.ts
 * says how query text becomes numbers and booleans, and how `x-message` becomes the `{message}`).
 */
const LATITUDE = '-?(?:90(?:\\.0+)?|[1-8]?\\d(?:\\.\\d+)?)';
const LONGITUDE = '-?(?:180(?:\\.0+)?|(?:1[0-7]\\d|[1-9]?\\d)(?:\\.\\d+)?)';
/** "latitude,longitude" in range, e.g. 40.7484,-73.9857. */
export const LAT_LNG_PATTERN = `^\\s*${LATITUDE}\\s*,\\s*${LONGITUDE}\\s*$`;
const ID = '[A-Za-z0-9_-]{1,64}';
/** A comma list of 1–50 ids. */
export const ID_LIST_PATTERN = `^\\s*${ID}\\s*(?:,\\s*${ID}\\s*){0,49}$`;
/** A place id: 24 hexadecimal digits, in any case. */
export const PLACE_ID_PATTERN = '^[0-9a-fA-F]{24}$';

export const text = (description: string, maxLength = 2000) =>
  Type.Optional(
    Type.String({ description, maxLength, 'x-message': `give at most ${maxLength} characters of text` }),
  );

/** Text that must hold something besides spaces. */
export const someText = (description: string, maxLength: number, message: string) =>
  Type.Optional(Type.String({ description, minLength: 1, maxLength, pattern: '\\S', 'x-message': message }));

export const integer = (minimum: number, maximum: number, description: string, byDefault?: number) =>
  Type.Optional(
    Type.Integer({
      description,
      minimum,
      maximum,
      ...(byDefault === undefined ? {} : { default: byDefault }),
      'x-message': `{value} is not an integer from ${minimum} to ${maximum}`,
    }),
  );

export const boolean = (description: string) =>
  Type.Optional(
    Type.Boolean({ description, 'x-message': '{value} is not true or false (1 and 0 are taken too)' }),
  );

export const oneOf = <const T extends readonly string[]>(values: T, description: string, message?: string) =>
  Type.Optional(
    Type.Enum([...values] as T[number][], {
      description,
      'x-message': message ?? `{value} is not one of ${values.join(', ')}`,
    }),
  );

export const latLng = (description: string) =>
  Type.Optional(
    Type.String({
      description,
      pattern: LAT_LNG_PATTERN,
      'x-message':
        '{value} is not "latitude,longitude" with latitude from -90 to 90 and longitude from -180 to 180 (e.g. 40.7484,-73.9857)',
    }),
  );

/** One coordinate in decimal degrees, e.g. 48.8584. */
export const coordinate = (name: 'latitude' | 'longitude', description: string) =>
  Type.Optional(
    Type.String({
      description,
      pattern: `^${name === 'latitude' ? LATITUDE : LONGITUDE}$`,
      'x-message': `{value} is not a ${name} from -${name === 'latitude' ? 90 : 180} to ${name === 'latitude' ? 90 : 180} in decimal degrees (e.g. ${name === 'latitude' ? '48.8584' : '2.2945'})`,
    }),
  );

export const idList = (description: string) =>
  Type.Optional(
    Type.String({
      description,
      pattern: ID_LIST_PATTERN,
      'x-message': '{value} is not a comma-separated list of 1 to 50 ids (letters, digits, _ and -)',
    }),
  );

/**
 * A parameter of the v3 API that the 2025-06-17 API renamed or dropped: refused with a 400 that names its
 * replacement, where ignoring it would answer unfiltered results as if it had been applied.
 */
const retired = (replacement: string) =>
  Type.Optional(
    Type.Never({
      description: `v3 only; refused: ${replacement}`,
      deprecated: true,
      'x-message': `not a parameter of the 2025-06-17 API; ${replacement}`,
    }),
  );

const Fields = (description: string) =>
  Type.Optional(Type.String({ description, pattern: FIELDS_PATTERN, 'x-fields': true }));

export const PlacesHeaders = Type.Object({
  'x-places-api-version': Type.Literal(API_VERSION, { description: 'The API version' }),
});

const TEL_FORMAT = oneOf(['NATIONAL', 'E164'], 'How tel is written', 'use NATIONAL or E164');

export const SearchQuery = Type.Object({
  query: someText(
    'Text to match against names, categories (their names and synonyms in English and the languages of the country searched in: "coffee", "café", "Apotheke") and chains',
    200,
    'give 1 to 200 characters of text',
  ),
  ll: latLng('Latitude,longitude to search around, e.g. 40.7484,-73.9857'),
  radius: integer(
    0,
    100_000,
    'Metres around ll or near; default 22000 around ll, the city’s size around near',
  ),
  fsq_category_ids: idList(
    'Comma-separated category ids of the taxonomy, in either form: 24 hex digits (4bf58dd8d48988d1e0931735) or the v3 number (13035); a category includes the categories below it (GET /places/categories lists them)',
  ),
  fsq_chain_ids: idList('Comma-separated chain ids'),
  exclude_fsq_chain_ids: idList('Chains to leave out (not with exclude_all_chains)'),
  exclude_all_chains: boolean('true leaves out every place that belongs to a chain'),
  fields: Fields('Comma-separated fields to return; default: every Pro field'),
  min_price: integer(1, 4, 'Lowest price tier'),
  max_price: integer(1, 4, 'Highest price tier'),
  open_at: Type.Optional(
    Type.String({
      description: 'DOWTHHMM local time, e.g. 1T2130 (Monday 21:30); not with open_now',
      pattern: '^[1-7]T(?:[01]\\d|2[0-3])[0-5]\\d$',
      'x-message': '{value} is not DOWTHHMM (day 1 = Monday … 7 = Sunday, T, 24-hour time), e.g. 1T2130',
    }),
  ),
  open_now: boolean('true: only places open now, in their own time zone; not with open_at'),
  tel_format: TEL_FORMAT,
  ne: latLng('North-east corner of a rectangle, with sw'),
  sw: latLng('South-west corner of a rectangle, with ne'),
  near: someText(
    'A city, e.g. "Chicago, IL"; resolved against the GeoNames gazetteer',
    200,
    'give a place name such as "Chicago, IL"',
  ),
  sort: oneOf(
    SORTS,
    'Order of the results; default RELEVANCE (with a query): 0.6 × text match (name 0–1; a category or synonym the query names 0.7, a search term of it 0.5; a chain it names 0.6) + 0.3 × 1 km / (1 km + distance) + 0.1 × (popularity + rating / 10) / 2 (docs/places-relevance.md). Without a query: DISTANCE when a location is given, else POPULARITY',
  ),
  limit: integer(1, 50, 'Results per page', 10),
  categories: retired('use fsq_category_ids'),
  chains: retired('use fsq_chain_ids'),
  exclude_chains: retired('use exclude_fsq_chain_ids'),
  polygon: retired('search a rectangle with ne and sw, or around ll with radius'),
  super_venue_id: retired('search around the venue with ll and radius'),
  cursor: Type.Optional(
    Type.String({
      description: 'The next page, from the Link header of the previous one',
      maxLength: 1000,
      'x-message': 'is not a cursor of this server; follow the Link header of the previous page',
    }),
  ),
});
export type SearchQueryValues = Static<typeof SearchQuery>;

export const DetailsQuery = Type.Object({
  fields: Fields('Comma-separated fields to return; default: every Pro field'),
  tel_format: TEL_FORMAT,
});
export type DetailsQueryValues = Static<typeof DetailsQuery>;

/** The path parameter of a place, matched only for the id shape (`PLACE_ID`, in any case). */
export const PLACE_ID_PARAM = ':fsq_place_id([0-9a-fA-F]{24})';

export const DetailsParams = Type.Object({
  fsq_place_id: Type.String({ description: 'The place id', pattern: PLACE_ID_PATTERN }),
});

export const AUTOCOMPLETE_TYPES = ['place', 'search', 'geo'] as const;

export const AutocompleteQuery = Type.Object({
  query: Type.String({
    description: 'The typed text: 3 to 100 characters',
    minLength: 3,
    maxLength: 100,
    pattern: '^\\s*\\S[\\s\\S]+\\S',
    'x-message': 'give 3 to 100 characters',
    'x-required': 'give at least 3 characters',
  }),
  ll: latLng('Bias suggestions towards this point'),
  radius: integer(0, 100_000, 'Bias radius in metres', 5000),
  types: Type.Optional(
    Type.String({
      description: 'Comma list of place, search, geo; default all three',
      pattern: '^\\s*(?:place|search|geo)\\s*(?:,\\s*(?:place|search|geo)\\s*)*$',
      'x-message': '{value} is not a comma list of place, search, geo',
    }),
  ),
  bias: text('Accepted for compatibility', 200),
  session_token: text('Accepted for compatibility', 200),
  limit: integer(1, 50, 'Suggestions', 10),
  fields: Fields('Fields of the suggested places'),
});
export type AutocompleteQueryValues = Static<typeof AutocompleteQuery>;

export const MatchQuery = Type.Object({
  name: Type.String({
    description: 'The business name',
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
    'x-message': 'give the business name, 1 to 200 characters',
    'x-required': 'the business name to match',
  }),
  address: text('Street address', 200),
  city: text('City', 200),
  state: text('State or region', 200),
  postal_code: text('Postal code', 40),
  cc: Type.Optional(
    Type.String({
      description: 'ISO 3166-1 alpha-2 country code',
      pattern: '^[A-Za-z]{2}$',
      'x-message': '{value} is not a two-letter country code',
    }),
  ),
  ll: latLng('Latitude,longitude of the business'),
  fields: Fields('Fields of the matched place'),
});
export type MatchQueryValues = Static<typeof MatchQuery>;

const listOf = (names: readonly string[]) =>
  `^\\s*(?:${names.join('|')})\\s*(?:,\\s*(?:${names.join('|')})\\s*)*$`;

export const TipsQuery = Type.Object({
  limit: integer(1, 50, 'Tips to return', 10),
  fields: Type.Optional(
    Type.String({
      description: `Comma-separated tip fields: ${TIP_FIELDS.join(', ')}; default fsq_tip_id, created_at, text`,
      pattern: listOf(TIP_FIELDS),
      'x-message': `{value} is not a comma list of ${TIP_FIELDS.join(', ')}`,
    }),
  ),
  sort: oneOf(TIP_SORTS, 'POPULAR (most agreed with first; the default) or NEWEST'),
});
export type TipsQueryValues = Static<typeof TipsQuery>;

export const PhotosQuery = Type.Object({
  limit: integer(1, 50, 'Photos to return', 10),
  sort: oneOf(PHOTO_SORTS, 'POPULAR (the default) or NEWEST'),
  classifications: Type.Optional(
    Type.String({
      description: `Comma-separated: only photos of these kinds (${PHOTO_CLASSIFICATIONS.join(', ')})`,
      pattern: listOf(PHOTO_CLASSIFICATIONS),
      'x-message': `{value} is not a comma list of ${PHOTO_CLASSIFICATIONS.join(', ')}`,
    }),
  ),
});
export type PhotosQueryValues = Static<typeof PhotosQuery>;

const closed = <T extends Parameters<typeof Type.Object>[0]>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
const opt = Type.Optional;
const LatLng = closed({ latitude: Type.Number(), longitude: Type.Number() });

const PhotoFields = {
  id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  prefix: Type.String({ description: 'The URL is prefix + size + suffix' }),
  suffix: Type.String(),
  width: Type.Integer({ description: 'Of the original' }),
  height: Type.Integer({ description: 'Of the original' }),
};

export const Photo = closed(
  { ...PhotoFields, classifications: Type.Array(Type.String()) },
  'A photo. Its URL is prefix + size + suffix; size is original, <width>x<height> (e.g. 300x300), cap<n>, width<n> or height<n>',
);

export const Tip = closed(
  {
    fsq_tip_id: opt(Type.String()),
    created_at: opt(Type.String({ format: 'date-time' })),
    text: opt(Type.String()),
    lang: opt(Type.String()),
    url: opt(Type.String()),
    agree_count: opt(Type.Integer({ minimum: 0 })),
    disagree_count: opt(Type.Integer({ minimum: 0 })),
    photo: opt(closed(PhotoFields)),
  },
  'A tip: the requested fields that have a value',
);

/** A place as the 2025-06-17 API shows it: only the requested fields that have a value (search/render.ts). */
export const Place = closed(
  {
    fsq_place_id: opt(Type.String()),
    name: opt(Type.String()),
    latitude: opt(Type.Number()),
    longitude: opt(Type.Number()),
    distance: opt(Type.Integer({ description: 'Metres from ll or the near city (search only)' })),
    categories: opt(
      Type.Array(
        closed({
          fsq_category_id: Type.String(),
          name: Type.String(),
          short_name: Type.String(),
          plural_name: Type.String(),
          icon: opt(closed({ prefix: Type.String(), suffix: Type.String() })),
        }),
      ),
    ),
    chains: opt(Type.Array(closed({ fsq_chain_id: Type.String(), name: opt(Type.String()) }))),
    location: opt(
      closed({
        address: opt(Type.String()),
        locality: opt(Type.String()),
        region: opt(Type.String()),
        postcode: opt(Type.String()),
        admin_region: opt(Type.String()),
        post_town: opt(Type.String()),
        po_box: opt(Type.String()),
        country: opt(Type.String({ description: 'ISO 3166-1 alpha-2' })),
        formatted_address: opt(Type.String()),
      }),
    ),
    tel: opt(Type.String()),
    email: opt(Type.String()),
    website: opt(Type.String()),
    social_media: opt(
      closed({ facebook_id: opt(Type.String()), instagram: opt(Type.String()), twitter: opt(Type.String()) }),
    ),
    link: opt(Type.String({ description: 'The place’s path on this API' })),
    date_closed: opt(Type.String({ format: 'date' })),
    date_created: opt(Type.String({ format: 'date' })),
    date_refreshed: opt(Type.String({ format: 'date' })),
    placemaker_url: opt(Type.String()),
    unresolved_flags: opt(Type.Array(Type.String())),
    description: opt(Type.String()),
    price: opt(Type.Integer({ minimum: 1, maximum: 4 })),
    rating: opt(Type.Number({ minimum: 0, maximum: 10 })),
    popularity: opt(Type.Number({ minimum: 0, maximum: 1 })),
    hours: opt(
      closed({
        display: Type.String(),
        is_local_holiday: Type.Boolean(),
        open_now: Type.Boolean(),
        regular: Type.Array(
          closed({
            day: Type.Integer({ minimum: 1, maximum: 7, description: 'Monday = 1' }),
            open: Type.String({ description: 'HHMM' }),
            close: Type.String({ description: 'HHMM, +HHMM for the next day' }),
          }),
        ),
      }),
    ),
    tips: opt(Type.Array(Tip, { description: 'The five most popular tips' })),
    photos: opt(Type.Array(Photo, { description: 'The five most popular photos' })),
    stats: opt(
      closed({
        total_photos: Type.Integer({ minimum: 0 }),
        total_ratings: Type.Integer({ minimum: 0 }),
        total_tips: Type.Integer({ minimum: 0 }),
      }),
    ),
  },
  'A place (2025-06-17 shape); only requested fields with a value. Premium fields this server has no data for are accepted in fields and absent',
);

const GeoBounds = closed({
  circle: opt(closed({ center: LatLng, radius: Type.Integer() })),
  rectangle: opt(closed({ ne: LatLng, sw: LatLng })),
});

export const SearchResponse = closed({
  results: Type.Array(Place),
  context: closed({ geo_bounds: opt(GeoBounds) }),
});

const SuggestionText = closed({
  primary: Type.String(),
  secondary: opt(Type.String()),
  highlight: Type.Array(closed({ start: Type.Integer(), length: Type.Integer() })),
});

export const AutocompleteResponse = closed({
  results: Type.Array(
    Type.Union([
      closed({ type: Type.Literal('place'), text: SuggestionText, link: Type.String(), place: Place }),
      closed({
        type: Type.Literal('search'),
        text: SuggestionText,
        search: closed({
          query: Type.String(),
          category: opt(closed({ fsq_category_id: Type.String(), name: Type.String() })),
          chain: opt(closed({ fsq_chain_id: Type.String(), name: Type.String() })),
        }),
      }),
      closed({
        type: Type.Literal('geo'),
        text: SuggestionText,
        geo: closed({ name: Type.String(), center: LatLng, cc: Type.String(), type: Type.Literal('city') }),
      }),
    ]),
  ),
});

export const MatchResponse = closed({ place: Place, match_score: Type.Number({ minimum: 0, maximum: 1 }) });

/**
 * The places answers are written by JSON.stringify: the schemas document them (and the typed-client test
 * holds real answers to them), and JSON.stringify gives the same text as the schema-driven serializer in
 * about half the time for places, whose open-ended field sets it walks one by one.
 */
export const stringify = () => (data: unknown) => JSON.stringify(data);

const ErrorBody = Type.Object({ message: Type.String() }, { description: 'What was wrong with the request' });
export const errorResponses = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };
