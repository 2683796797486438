import { badRequest } from '@cairn/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxCredentials, UserAccessTokenInput } from './credentials.ts';

function bodyObject(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be a JSON object');
  return body as Record<string, unknown>;
}

function text(body: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value === '' || value.length > 2048) {
    throw badRequest(`"${name}" ${required ? 'is required: ' : 'must be '}a string of 1 to 2048 characters`, {
      pointer: `/${name}`,
    });
  }
  return value;
}

/** The grant's fields as the HTTP controls take them (snake_case, as the OAuth endpoints name them). */
function grantInput(body: Record<string, unknown>): Omit<UserAccessTokenInput, 'placemaker'> {
  const email = text(body, 'email', false);
  const password = text(body, 'password', false);
  if ((email === undefined) !== (password === undefined)) {
    throw badRequest(
      'give "email" and "password" together (an account that signs in), or neither (a new person signs up)',
      { pointer: email === undefined ? '/email' : '/password' },
    );
  }
  const redirectUri = text(body, 'redirect_uri', false);
  return {
    app: {
      clientId: text(body, 'client_id', true)!,
      clientSecret: text(body, 'client_secret', true)!,
      ...(redirectUri !== undefined ? { redirectUri } : {}),
    },
    ...(email !== undefined ? { person: { email, password: password! } } : {}),
  };
}

/**
 * POST /_cairn/user-access-token and /_cairn/session-token: a person's credentials through the OAuth flow's
 * own steps (registered under the controls, so they take the bootstrap key).
 */
export async function credentialControls(app: FastifyInstance, credentials: SandboxCredentials) {
  const hide = { schema: { hide: true }, bodyLimit: 64 * 1024 };

  app.post('/user-access-token', hide, async (request, reply) => {
    const body = bodyObject(request);
    const placemaker = body.placemaker ?? false;
    if (typeof placemaker !== 'boolean')
      throw badRequest('"placemaker" must be true or false', { pointer: '/placemaker' });
    const made = await credentials.userAccessToken({ ...grantInput(body), placemaker });
    return reply.code(201).send({
      access_token: made.accessToken,
      token_type: 'Bearer',
      scope: made.scope,
      user_id: made.userId,
      email: made.email,
    });
  });

  app.post('/session-token', hide, async (request, reply) => {
    const body = bodyObject(request);
    const accessToken = text(body, 'access_token', false);
    if (accessToken !== undefined && (body.client_id !== undefined || body.email !== undefined)) {
      throw badRequest('give "access_token", or the fields of a new grant (client_id, …), not both', {
        pointer: '/access_token',
      });
    }
    const made = await credentials.sessionToken(
      accessToken !== undefined ? { accessToken } : grantInput(body),
    );
    return reply.code(201).send({
      session_token: made.sessionToken,
      editor_url: made.editorUrl,
      access_token: made.accessToken,
      user_id: made.userId,
    });
  });
}
