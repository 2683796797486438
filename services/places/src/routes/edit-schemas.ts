import { Type } from 'typebox';
import { FLAG_PROBLEMS } from '../edits/flag-merge.ts';
import { REMOVE_REASONS } from '../edits/suggest.ts';
import { VOTE_VALUES } from '../edits/types.ts';
import {
  boolean,
  coordinate,
  idList,
  integer,
  latLng,
  oneOf,
  PLACE_ID_PATTERN,
  someText,
  text,
} from './schemas.ts';

/**
 * Route schemas of the suggested-edit endpoints. Ajv checks each value's type, range and shape; the edit
 * functions check what the schemas can't say (an id that names no place, a field that can't be cleared, …)
 * and refuse parameters the endpoint does not take.
 */
const DRY_RUN = boolean(
  'true: validate and answer with what would be created (and whether it would apply), writing nothing',
);
const COMMENT = text('A note for voters', 1000);

export const PlaceIdParams = Type.Object({
  fsq_place_id: Type.String({ description: 'The place id', pattern: PLACE_ID_PATTERN }),
});
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const EditIdParams = Type.Object({
  edit_id: Type.String({
    description: 'The suggested edit id (a UUID)',
    pattern: `^\\s*${UUID}\\s*$`,
    'x-message': '{value} is not a suggested edit id',
  }),
});

const FIELDS = {
  name: text('New name, at most 200 characters'),
  latitude: coordinate('latitude', 'Decimal degrees, -90 to 90'),
  longitude: coordinate('longitude', 'Decimal degrees, -180 to 180'),
  address: text('Street address'),
  locality: text('City or town'),
  region: text('State, province or region'),
  postcode: text('Postal code'),
  country_code: text('ISO 3166-1 alpha-2, e.g. FR'),
  tel: text('Phone number, 5–15 digits; +country code for the international form'),
  website: text('http or https URL'),
  email: text('Email address'),
  description: text('At most 300 characters'),
  hours: text('day,start,end[,label] joined with ";" (Monday = 1, HHMM, +HHMM for the next day)'),
  facebook_url: text('Facebook page URL'),
  instagram: text('Instagram handle'),
  twitter: text('Twitter handle'),
};

export const SuggestEditQuery = Type.Object({
  ...FIELDS,
  add_fsq_category_ids: idList(
    'Categories to add: comma list of taxonomy ids, 24 hex digits or the v3 number (GET /places/categories)',
  ),
  remove_fsq_category_ids: idList('Categories to remove, by the ids answers show them with'),
  primary_fsq_category_id: text('The category to list first (a taxonomy id in either form)'),
  add_fsq_chain_ids: idList('Chains to add'),
  remove_fsq_chain_ids: idList('Chains to remove'),
  primary_fsq_chain_id: text('The chain to list first'),
  chains: text('The whole chain list (not with add/remove/primary_fsq_chain_id)'),
  unset_fields: text(
    'Fields to clear: address, locality, region, postcode, tel, website, email, description, hours, facebook_url, instagram, twitter, chains',
  ),
  comment: COMMENT,
  dry_run: DRY_RUN,
});

export const SuggestRemoveQuery = Type.Object({
  reason: Type.Enum([...REMOVE_REASONS], {
    description: 'Why the place should go',
    'x-message': `{value} is not one of ${REMOVE_REASONS.join(', ')}`,
    'x-required': `one of ${REMOVE_REASONS.join(', ')}`,
  }),
  comment: COMMENT,
  dry_run: DRY_RUN,
});

export const SuggestFlagQuery = Type.Object({
  fields: text(
    'Fields that are wrong: address, latitude, longitude, locality, name, tel, postcode, region, state, website, placeActions',
  ),
  problem: oneOf(FLAG_PROBLEMS, 'Or a problem with the place'),
  comment: COMMENT,
  dry_run: DRY_RUN,
});

export const SuggestMergeQuery = Type.Object({
  duplicate_fsq_place_ids: Type.String({
    description: 'Comma list of the places that duplicate this one (at most 10)',
    pattern: '^\\s*[A-Za-z0-9_-]{1,64}\\s*(?:,\\s*[A-Za-z0-9_-]{1,64}\\s*){0,9}$',
    'x-message': '{value} is not a comma list of 1 to 10 place ids',
    'x-required': 'comma list of the ids of the places that duplicate this one',
  }),
  comment: COMMENT,
  dry_run: DRY_RUN,
});

export const SuggestPlaceQuery = Type.Object({
  ...FIELDS,
  name: text('Required: the name of the new place'),
  latitude: coordinate('latitude', 'Required: decimal degrees, -90 to 90'),
  longitude: coordinate('longitude', 'Required: decimal degrees, -180 to 180'),
  categories: text('Comma list of taxonomy category ids, 24 hex digits or the v3 number'),
  chains: text('Comma list of chain ids'),
  comment: COMMENT,
  dry_run: DRY_RUN,
});

export const StatusQuery = Type.Object({
  suggested_edit_ids: Type.Optional(
    Type.String({
      description: 'Comma list of 1 to 50 edit ids; default: the caller’s own edits, newest first',
      pattern: `^[\\s,]*${UUID}(?:[\\s,]+${UUID}){0,49}[\\s,]*$`,
      'x-message': '{value} is not a comma list of 1 to 50 suggested edit ids',
    }),
  ),
  limit: integer(0, 50, 'Edits', 10),
});

export const ReviewQuery = Type.Object({
  near: someText('A city, e.g. "Paris, FR"', 200, 'give a place name such as "Chicago, IL"'),
  ne: latLng('North-east corner, with sw'),
  sw: latLng('South-west corner, with ne'),
  ll: latLng('Latitude,longitude, with radius'),
  radius: integer(
    0,
    100_000,
    'Metres around ll or near (default 22000 around ll, the city’s size around near)',
  ),
  limit: integer(1, 50, 'Places', 10),
});

export const VoteQuery = Type.Object({
  vote: Type.Enum([...VOTE_VALUES], {
    description: 'The vote',
    'x-message': `{value} is not one of ${VOTE_VALUES.join(', ')}`,
    'x-required': VOTE_VALUES.join(', '),
  }),
  dry_run: DRY_RUN,
});

export const HistoryQuery = Type.Object({
  limit: integer(1, 100, 'Items', 50),
  before: integer(1, 999_999_999, 'An item id: older items only (paging back)'),
});

const Json = Type.Unknown({ description: 'A JSON value' });
const Tally = Type.Object(
  {
    approve: Type.Integer(),
    reject: Type.Integer(),
    skip: Type.Integer(),
    author_weight: Type.Number({ description: 'The author’s own approval, from their trust' }),
    approve_weight: Type.Number({ description: 'Trust-weighted approvals, the author’s weight included' }),
    reject_weight: Type.Number(),
    accept_quorum: Type.Number(),
    reject_quorum: Type.Number(),
    counted_approvals: Type.Optional(
      Type.Integer({
        description: 'Parties (organizations, people) independent of the edit whose approval counts',
      }),
    ),
    counted_rejections: Type.Optional(Type.Integer()),
    not_counted: Type.Optional(
      Type.Integer({
        description: 'Votes that weigh nothing: not independent of the edit, or their party counted',
      }),
    ),
    independent_approval_required: Type.Optional(
      Type.Boolean({
        description: 'A service key’s or managed user’s edit applies only with an independent approval',
      }),
    ),
  },
  { additionalProperties: true },
);

export const EditView = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Null()], { description: 'null in a dry run of a suggestion' }),
    fsq_place_id: Type.Union([Type.String(), Type.Null()]),
    suggested_edit_type: Type.String({ description: 'edit, remove, flag, merge, new_place or tip' }),
    created_at: Type.String({ format: 'date-time' }),
    resolved_time: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    rolled_back: Type.Union([
      Type.Object({ time: Type.String({ format: 'date-time' }), reason: Type.String() }),
      Type.Null(),
    ]),
    status: Type.String({ description: 'pending, accepted, rejected or rolled_back' }),
    created_fsq_place_id: Type.Union([Type.String(), Type.Null()]),
    matched_fsq_place_id: Type.Union([Type.String(), Type.Null()]),
    changes: Type.Array(
      Type.Object({
        fsq_place_id: Type.Union([Type.String(), Type.Null()]),
        field: Type.String(),
        from: Json,
        to: Json,
      }),
    ),
    details: Type.Object({}, { additionalProperties: true }),
    votes: Tally,
    resolution: Type.Union([Type.Object({ kind: Type.String(), reason: Type.String() }), Type.Null()]),
    own: Type.Boolean({ description: 'Whether the caller made this edit' }),
    my_vote: Type.Union([Type.String(), Type.Null()]),
    dry_run: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const Errors = Type.Array(Type.Object({ message: Type.String() }, { additionalProperties: true }));

export const SuggestResponse = Type.Object({ suggested_edits: Type.Array(EditView), errors: Errors });

export const SuggestPlaceResponse = Type.Object({
  new_place_suggestion: EditView,
  matched_fsq_place: Type.Union([
    Type.Object({ fsq_place_id: Type.String(), name: Type.String() }),
    Type.Null(),
  ]),
  errors: Errors,
  suggested_edits: Type.Array(EditView),
});

export const StatusResponse = Type.Object({ suggested_edits: Type.Array(EditView) });

export const ReviewResponse = Type.Object({
  venues: Type.Array(
    Type.Object(
      {
        fsq_place_id: Type.Union([Type.String(), Type.Null()]),
        venue_name: Type.String(),
        location: Type.Object({}, { additionalProperties: true }),
        latitude: Type.Number(),
        longitude: Type.Number(),
        woe_types: Type.Array(Type.String()),
        woe_count: Type.Integer(),
        woes: Type.Array(EditView),
      },
      { additionalProperties: true },
    ),
  ),
});

export const HistoryResponse = Type.Object({
  fsq_place_id: Type.String(),
  history: Type.Array(
    Type.Object(
      {
        id: Type.Integer(),
        edit_id: Type.String(),
        suggested_edit_type: Type.String(),
        action: Type.String({ description: 'apply or rollback' }),
        field: Type.String(),
        from: Json,
        to: Json,
        at: Type.String({ format: 'date-time' }),
        attribution: Type.Object(
          {
            contributor: Type.Union([Type.String(), Type.Null()], {
              description:
                'An opaque handle of the contributor, the same in every answer (null for an operator’s rollback)',
            }),
            organization_id: Type.Optional(
              Type.Union([Type.String(), Type.Null()], {
                description: 'Only for the organization the change came through (and null for an operator)',
              }),
            ),
            app_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
            user_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
            credential_kind: Type.String({
              description: 'service_key, managed_user, oauth_user or operator',
            }),
          },
          { additionalProperties: true },
        ),
      },
      { additionalProperties: true },
    ),
  ),
});
