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

/**
 * The token, revocation and introspection endpoints: the client authenticates with HTTP Basic
 * (client_secret_basic) or with its id and secret in the form (client_secret_post, which OpenAPI can't
 * name: hence the empty alternative).
 */
export const CLIENT_AUTHENTICATED: Record<string, string[]>[] = [{ clientCredentials: [] }, {}];

/** RFC 6749 §5.2: invalid_client is a 401, every other error a 400. */
export const OAUTH_ERRORS = { 400: OAuthErrorSchema, 401: OAuthErrorSchema };

/** RFC 6749 §5.1 (no expires_in: the seed's tokens are permanent; no refresh token). */
export const TokenResponseSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  scope: Type.String({ description: 'What the person consented to, space-separated' }),
});

/** RFC 7662 §2.2: `{active: false}` for any token that is not the client's own live token. */
export const IntrospectionSchema = Type.Object({
  active: Type.Boolean(),
  client_id: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String()),
  sub: Type.Optional(Type.String()),
  iat: Type.Optional(Type.Integer()),
  iss: Type.Optional(Type.String()),
});

/** RFC 7009 §2.2: an empty answer, whether or not the token was valid. */
export const RevocationSchema = Type.Object({});

/** RFC 8414 §2: the metadata fields this server sets are all strings or lists of strings. */
export const MetadataSchema = Type.Object(
  { issuer: Type.String(), token_endpoint: Type.String() },
  { additionalProperties: true },
);
