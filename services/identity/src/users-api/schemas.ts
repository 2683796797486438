import { API_VERSION } from '@cairn/kit';
import { Type } from 'typebox';

export const NAME_MAX = 100;

const name = (which: string) =>
  Type.Optional(
    Type.String({
      maxLength: NAME_MAX,
      pattern: '^[^\\u0000-\\u001f\\u007f]*$',
      description: `The user's ${which}; at most ${NAME_MAX} characters, no control characters`,
      'x-message': `must be text of at most ${NAME_MAX} characters without control characters, given once`,
    }),
  );

export const CreateQuery = Type.Object({ first_name: name('first name'), last_name: name('last name') });

export const TargetUserQuery = Type.Object(
  {
    target_user_id: Type.String({
      pattern: '^0*[1-9][0-9]{0,14}$',
      description: 'The user_id returned when the managed user was created',
      'x-message': 'must be a positive integer (the user_id returned at creation), given once',
    }),
  },
  { required: ['target_user_id'] },
);

export const ErrorBody = Type.Object(
  { message: Type.String() },
  { description: 'What was wrong with the request' },
);

export const CreatedUser = Type.Object({
  user_id: Type.Integer({ description: 'Store it with your user: there is no call that returns it again' }),
  access_token: Type.String({ description: "The managed user's bearer credential for the places API" }),
});

export const RefreshedToken = Type.Object({ access_token: Type.String() });

export const DeletedUser = Type.Object({ user_id: Type.Integer(), deleted: Type.Literal(true) });

export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  406: ErrorBody,
};

export const usersApiHeaders = Type.Object({
  'x-users-api-version': Type.Literal(API_VERSION, { description: 'The API version' }),
  accept: Type.Optional(Type.String({ description: 'application/json' })),
});

export const SessionToken = Type.Object({
  session_token: Type.String({
    description: 'Opens {editor_url}/placemakers/home?session_token=… once, within 10 minutes',
  }),
});
