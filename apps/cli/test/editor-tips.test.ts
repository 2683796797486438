import { createSessionToken } from '@cairn/identity';
import { connectThirdPartyUser } from '@cairn/identity/testing';
import { launchBrowser, screenshotPath } from '@cairn/kit/testing-browser';
import { rollbackEdit } from '@cairn/places';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EditorStack, startEditorStack } from './editor-stack.ts';

/**
 * Issue 20 §3: a person adds a tip in the place editor, over the editor's HTTP API. A new person's tip is a
 * suggestion like an edit: it waits for independent approvals, and only then does the places API's
 * /places/{id}/tips show it, attributed to its author; a rejected tip is never shown. The last test does it
 * in Debian's chromium, on the place's page.
 */
let stack: EditorStack;
let placeId: string;
let browser: Browser | undefined;

beforeAll(async () => {
  stack = await startEditorStack(40);
  const { rows } = await stack.deps.db.query<{ fsq_place_id: string }>(
    'SELECT fsq_place_id FROM places ORDER BY fsq_place_id LIMIT 1',
  );
  placeId = rows[0]!.fsq_place_id;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack.close();
});

/** A new person's editor link (a fresh session token), as their third-party app would open it. */
async function editorLink() {
  const person = await connectThirdPartyUser(stack.identity.deps, {
    organizationId: stack.orgId,
    placemaker: true,
  });
  const auth = await stack.identity.resolveBearer(person.accessToken);
  const { session_token } = await createSessionToken(stack.identity.deps, auth);
  return { url: `${stack.baseUrl}/placemakers/home?session_token=${session_token}`, auth };
}

/** A new person in the editor: their editor cookie. */
async function personInEditor() {
  const { url, auth } = await editorLink();
  const opened = await fetch(url, { redirect: 'manual' });
  return { cookie: opened.headers.getSetCookie()[0]!.split(';')[0]!, userId: auth.userId, appId: auth.appId };
}

async function editor(cookie: string, method: 'GET' | 'POST', path: string, body?: Record<string, string>) {
  const res = await fetch(`${stack.baseUrl}/placemakers/api${path}`, {
    method,
    headers: {
      cookie,
      ...(method === 'POST'
        ? { 'x-requested-with': 'cairn-editor', 'content-type': 'application/json' }
        : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function apiTips(): Promise<{ fsq_tip_id: string; text: string; lang?: string }[]> {
  const res = await fetch(
    `${stack.baseUrl}/places/${placeId}/tips?sort=NEWEST&limit=50&fields=fsq_tip_id,text,lang`,
    {
      headers: { authorization: `Bearer ${stack.serviceKey}`, 'x-places-api-version': '2025-06-17' },
    },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { fsq_tip_id: string; text: string; lang?: string }[];
}

type Edit = {
  id: string;
  status: string;
  suggested_edit_type: string;
  changes: { to: { fsq_tip_id: string } }[];
};
const editOf = (body: Record<string, unknown>) => (body.suggested_edits as Edit[])[0]!;

describe('a tip added in the place editor', () => {
  it('waits for votes, then shows in /places/{id}/tips attributed to its author; rollback takes it out', async () => {
    const [author, v1, v2] = [await personInEditor(), await personInEditor(), await personInEditor()];
    const text = 'Ask for the table by the window, the view is lovely.';
    const added = await editor(author.cookie, 'POST', `/places/${placeId}/suggest/tip`, { text });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const edit = editOf(added.body);
    expect(edit).toMatchObject({ suggested_edit_type: 'tip', status: 'pending' });
    expect((await apiTips()).map((t) => t.text)).not.toContain(text);

    expect(
      editOf((await editor(v1.cookie, 'POST', `/suggest/${edit.id}/vote`, { vote: 'approve' })).body).status,
    ).toBe('pending');
    const second = await editor(v2.cookie, 'POST', `/suggest/${edit.id}/vote`, { vote: 'approve' });
    expect(editOf(second.body).status).toBe('accepted');

    const tip = (await apiTips()).find((t) => t.text === text);
    expect(tip).toEqual({ fsq_tip_id: edit.changes[0]!.to.fsq_tip_id, text, lang: 'fr' });
    const shown = await editor(v1.cookie, 'GET', `/places/${placeId}/tips`);
    expect(JSON.stringify(shown.body)).toContain(text);
    const { rows } = await stack.deps.db.query<Record<string, unknown>>(
      'SELECT organization_id, app_id, user_id::int AS user_id, edit_id, source FROM places_tips WHERE fsq_tip_id = $1',
      [tip!.fsq_tip_id],
    );
    expect(rows[0]).toEqual({
      organization_id: stack.orgId,
      app_id: author.appId,
      user_id: author.userId,
      edit_id: edit.id,
      source: 'edit',
    });

    await rollbackEdit(stack.places.deps, edit.id, { reason: 'spam' });
    expect((await apiTips()).map((t) => t.text)).not.toContain(text);
  });

  it('a rejected tip is never shown; bad input is a 400 naming the parameter', async () => {
    const [author, r1, r2] = [await personInEditor(), await personInEditor(), await personInEditor()];
    const text = 'Terrible, avoid.';
    const added = await editor(author.cookie, 'POST', `/places/${placeId}/suggest/tip`, { text });
    const edit = editOf(added.body);
    await editor(r1.cookie, 'POST', `/suggest/${edit.id}/vote`, { vote: 'reject' });
    const rejected = await editor(r2.cookie, 'POST', `/suggest/${edit.id}/vote`, { vote: 'reject' });
    expect(editOf(rejected.body).status).toBe('rejected');
    expect((await apiTips()).map((t) => t.text)).not.toContain(text);

    for (const [body, parameter] of [
      [{}, 'text'],
      [{ text: '   ' }, 'text'],
      [{ text: 'x'.repeat(501) }, 'text'],
      [{ text: 'Good', url: 'javascript:alert(1)' }, 'url'],
      [{ text: 'Good', lang: 'french' }, 'lang'],
      [{ text: 'Good', stars: '5' }, 'stars'],
    ] as const) {
      const res = await editor(author.cookie, 'POST', `/places/${placeId}/suggest/tip`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.parameter, JSON.stringify(res.body)).toBe(parameter);
    }
  });

  it('in Chromium: the tip waits for votes, then the place page lists it', async () => {
    browser = await launchBrowser();
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto((await editorLink()).url);
    await page.waitForSelector('[data-testid=who]');
    await page.goto(`${stack.baseUrl}/placemakers/place/${placeId}`);
    await page.waitForSelector('section[aria-label=Tips]');
    // Keys rather than clicks: the page's map keeps redrawing, and a click waits for a still layout.
    await page.focus('button:text("Add a tip")');
    await page.keyboard.press('Enter');
    const text = 'The terrace is sunny after four.';
    await page.fill('#field-text', text);
    await page.focus('button:text("Add tip")');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=waits for other people to vote');
    expect(await page.locator(`[data-testid=tips] li:has-text("${text}")`).count()).toBe(0);

    const { rows } = await stack.deps.db.query<{ id: string }>(
      `SELECT id FROM places_edits WHERE fsq_place_id = $1 AND changes->0->'to'->>'text' = $2`,
      [placeId, text],
    );
    for (const voter of [await personInEditor(), await personInEditor()]) {
      const vote = await editor(voter.cookie, 'POST', `/suggest/${rows[0]!.id}/vote`, { vote: 'approve' });
      expect(vote.status).toBe(200);
    }

    await page.reload();
    await page.waitForSelector(`[data-testid=tips] li:has-text("${text}")`);
    await page.screenshot({ path: screenshotPath('placemakers-tips'), fullPage: true });
    await page.context().close();
  }, 120_000);
});
