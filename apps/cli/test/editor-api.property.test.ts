import { createSessionToken } from '@cairn/identity';
import { connectThirdPartyUser } from '@cairn/identity/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EditorStack, startEditorStack } from './editor-stack.ts';

let stack: EditorStack;
let cookie: string;
let placeId: string;

beforeAll(async () => {
  stack = await startEditorStack(40);
  const person = await connectThirdPartyUser(stack.identity.deps, {
    organizationId: stack.orgId,
    placemaker: true,
  });
  const auth = await stack.identity.resolveBearer(person.accessToken);
  const { session_token } = await createSessionToken(stack.identity.deps, auth);
  const opened = await fetch(`${stack.baseUrl}/placemakers/home?session_token=${session_token}`, {
    redirect: 'manual',
  });
  cookie = opened.headers.getSetCookie()[0]!.split(';')[0]!;
  const { rows } = await stack.deps.db.query<{ fsq_place_id: string }>(
    'SELECT fsq_place_id FROM places LIMIT 1',
  );
  placeId = rows[0]!.fsq_place_id;
}, 120_000);
afterAll(async () => {
  await stack.close();
});

const value = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '',
    'x',
    '-1',
    '1e9',
    '48.8,2.3',
    'https://example.com',
    'CLOSED',
    'approve',
    'reject',
    '%00',
    '[]',
  ),
  fc.integer().map(String),
);
const names = fc.constantFrom(
  'name',
  'tel',
  'website',
  'latitude',
  'longitude',
  'hours',
  'reason',
  'fields',
  'duplicate_fsq_place_ids',
  'text',
  'url',
  'lang',
  'vote',
  'query',
  'll',
  'radius',
  'limit',
  'near',
  'country_code',
  'dry_run',
  'x',
  '__proto__',
);

describe('the editor API under random input', () => {
  it('answers 2xx or 4xx with a message, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'GET /search',
          'GET /places/ID',
          'GET /places/ID/history',
          'GET /places/ID/tips',
          'POST /places/ID/suggest/edit',
          'POST /places/ID/suggest/remove',
          'POST /places/ID/suggest/flag',
          'POST /places/ID/suggest/merge',
          'POST /places/ID/suggest/tip',
          'POST /places/ID/suggest/bogus',
          'POST /suggest/place',
          'GET /suggest/status',
          'GET /suggest/review',
          'POST /suggest/EDIT/vote',
          'GET /me/accuracy',
        ),
        fc.dictionary(
          names,
          fc.oneof(value, fc.array(value, { maxLength: 2 }), fc.integer(), fc.constant(null)),
        ),
        fc.constantFrom(placeId, 'nope', '%2e%2e'),
        async (route, params, id) => {
          const [method, template] = route.split(' ') as [string, string];
          const path = template.replace('ID', id).replace('EDIT', id);
          const url = new URL(`${stack.baseUrl}/placemakers/api${path}`);
          const headers: Record<string, string> = { cookie };
          let body: string | undefined;
          if (method === 'GET') {
            for (const [k, v] of Object.entries(params)) url.searchParams.append(k, String(v));
          } else {
            headers['x-requested-with'] = 'cairn-editor';
            headers['content-type'] = 'application/json';
            body = JSON.stringify(params);
          }
          const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
          const json = (await res.json()) as { message?: unknown };
          expect(res.status, `${route} ${JSON.stringify(params)} → ${JSON.stringify(json)}`).toBeLessThan(
            500,
          );
          if (res.status >= 400) expect(typeof json.message).toBe('string');
        },
      ),
      { numRuns: 200 },
    );
  });
});
