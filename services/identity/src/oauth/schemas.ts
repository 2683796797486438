import { Type } from 'typebox';

/** RFC 6749 §5.2 / RFC 6750 §3 error body of the OAuth endpoints. */
export const OAuthErrorSchema = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { description: 'An OAuth error (RFC 6749 §5.2, RFC 6750 §3); a 401 carries WWW-Authenticate: Bearer' },
);

export const UserInfoSchema = Type.Object(
  {
    sub: Type.String({ description: "The person's user id, as a string (OpenID Connect Core §5.3.2)" }),
    user_id: Type.Integer({ description: 'The same id as the users API writes it' }),
    name: Type.Optional(Type.String({ description: "The person's display name" })),
    first_name: Type.Optional(Type.String({ description: 'As the users API keeps it' })),
    last_name: Type.Optional(Type.String({ description: 'As the users API keeps it' })),
  },
  { description: 'Claims without a value are left out' },
);
