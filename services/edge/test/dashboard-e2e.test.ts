import type { FakeClock } from '@cairn/kit';
import { launchBrowser, screenshotPath } from '@cairn/kit/testing-browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDashboardUser,
  geoDatabase,
  OWASP_PACKAGE_ID,
  type PlanName,
  type Zone,
} from '../src/index.ts';
import {
  ANOMALY_RULE,
  ATTACKS,
  EDGE_RULESET,
  OWASP_RULESET,
  type ProxyFixture,
  paranoia,
  startProxyFixture,
} from './proxy-fixture.ts';

interface EntryRule {
  action: string;
  action_parameters: { id?: string; overrides?: { categories?: unknown[]; rules?: unknown[] } };
}
interface HistoryRow {
  from: string;
  to: string;
  cause: string;
  actor: { type: string; name: string };
}

/**
 * Issue 8's dashboard in Debian's chromium: one path per plan through the seed's state-transition table
 * (Review configuration → Deploy; Enterprise: Deploy → validation mode → adjust → Ready to update → Turn off
 * previous version), signed in with a dashboard login or with an API token, checked against the API.
 */
describe('the WAF upgrade in the dashboard', { timeout: 120_000 }, () => {
  let f: ProxyFixture;
  let browser: Browser;
  let base: string;
  const password = 'a long dashboard password';

  beforeAll(async () => {
    f = await startProxyFixture();
    // Security Events asks for the browser's last 30 minutes: the edge's clock reads now.
    (f.deps.clock as FakeClock).set(Date.now());
    base = f.api.replace(/\/client\/v4$/, '');
    await createDashboardUser(f.edge.deps, { accountId: f.accountId, email: 'ops@example.com', password });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  const paths = (id: string) => ({
    status: `/zones/${id}/waf_migration/status`,
    history: `/zones/${id}/waf_migration/history`,
    entrypoint: `/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
  });

  async function ok(method: string, path: string, body?: unknown) {
    const answer = await f.call(method, path, body);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.result;
  }

  /** A zone on the previous WAF with the `waf` setting on (so the managed rulesets are deployed enabled). */
  async function legacyZone(name: string, plan: PlanName): Promise<Zone> {
    const zone = await f.zone(`${name}.example.com`, plan);
    if (plan !== 'free') await ok('PATCH', `/zones/${zone.id}/settings/waf`, { value: 'on' });
    return zone;
  }

  async function signIn(how: { email: string } | { token: string }, viewport = { width: 1280, height: 900 }) {
    const page = await (await browser.newContext({ viewport })).newPage();
    page.on('pageerror', (e) => console.error('page error', e));
    await page.goto(`${base}/dashboard/`);
    if ('token' in how) {
      await page.click('role=tab[name="API token"]');
      await page.fill('input[name=api_token]', how.token);
    } else {
      await page.fill('input[name=email]', how.email);
      await page.fill('input[name=password]', password);
    }
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-testid=who]');
    return page;
  }

  async function openZone(page: Page, zone: Zone) {
    await page.click(`a:has-text("${zone.name}")`);
    await page.waitForSelector('[data-testid=migration-state]');
  }

  async function stateOf(zone: Zone) {
    return (await ok('GET', paths(zone.id).status)) as Record<string, string>;
  }

  it('shows the sign-in error beside the form, then the zones with their plans', async () => {
    await legacyZone('listed-pro', 'pro');
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/dashboard/`);
    await page.fill('input[name=email]', 'ops@example.com');
    await page.fill('input[name=password]', 'not the password');
    await page.click('button[type=submit]');
    expect(await page.textContent('#sign-in-error')).toMatch(/Wrong email or password/);
    await page.fill('input[name=password]', password);
    await page.click('button[type=submit]');
    await page.waitForSelector('table.list');
    const row = await page.textContent('tr:has-text("listed-pro.example.com")');
    expect(row).toContain('Pro');
    expect(row).toContain('Previous version of the WAF managed rules');
    expect(await page.textContent('[data-testid=who]')).toContain('ops@example.com');
    // the IP database's date and the attribution its data licence asks for
    const note = await page.textContent('[data-testid=ip-database]');
    expect(note).toContain(geoDatabase().info.date);
    expect(note).toContain('IP Geolocation by DB-IP');
    await page.screenshot({ path: screenshotPath('dashboard-zones') });
  });

  it('Pro: Review configuration shows what is migrated and what is not; adjusted, Deploy upgrades it', async () => {
    const zone = await legacyZone('shop', 'pro');
    const pkg = `/zones/${zone.id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`;
    await ok('POST', `/zones/${zone.id}/firewall/rules`, [
      {
        filter: { expression: 'http.request.uri.path contains "/api/"' },
        action: 'bypass',
        products: ['waf'],
        description: 'API',
      },
    ]);
    await ok('PATCH', pkg, { sensitivity: 'high', action_mode: 'simulate' });
    const groups = (await ok('GET', `${pkg}/groups?per_page=100`)) as { id: string }[];
    await ok('PATCH', `${pkg}/groups/${groups[0]!.id}`, { mode: 'off' });
    const edgeRules = (
      (await ok('GET', `/accounts/${f.accountId}/rulesets/${EDGE_RULESET}`)) as { rules: { id: string }[] }
    ).rules;
    const target = edgeRules[0]!.id;

    const page = await signIn({ email: 'ops@example.com' });
    await openZone(page, zone);
    expect(await page.textContent('[data-testid=upgrade-banner]')).toContain(
      'Upgrade to the new WAF Managed Rules',
    );
    await page.screenshot({ path: screenshotPath('dashboard-pro-banner') });

    await page.click('text=Review configuration');
    await page.waitForSelector('[data-testid=rule-2]');
    expect(await page.textContent('[data-testid=rule-0]')).toContain(
      'http.request.uri.path contains "/api/"',
    );
    expect(await page.textContent('[data-testid=rule-1]')).toContain('Deploy Cairn Managed Ruleset');
    const owasp = page.locator('[data-testid=rule-2]');
    expect(await owasp.locator('select[name=paranoia-2]').inputValue()).toBe('2');
    expect(await owasp.locator('select[name=threshold-2]').inputValue()).toBe('40');
    expect(await owasp.locator('select[name=owasp-action-2]').inputValue()).toBe('log');
    expect(await page.textContent('[data-testid=not-migrated]')).toContain(groups[0]!.id);
    await page.screenshot({ path: screenshotPath('dashboard-pro-review'), fullPage: true });

    // Adjust before deploying: OWASP blocks instead of logging; one managed rule only logs.
    await owasp.locator('select[name=owasp-action-2]').selectOption('block');
    const managed = page.locator('[data-testid=rule-1]');
    await managed.locator('input[name=override-rule-1]').fill(target);
    await managed.locator('select[name=override-action-1]').selectOption('log');
    await managed.locator('button:has-text("Add override")').click();
    await managed.locator(`tr:has-text("${target}")`).waitFor();
    expect(await page.textContent('[data-testid=configuration-json]')).toContain(`"id": "${target}"`);

    await page.click('button:has-text("Deploy")');
    await page.waitForSelector('[data-testid=upgrade-complete]');
    await page.screenshot({ path: screenshotPath('dashboard-pro-complete') });

    const status = await stateOf(zone);
    expect(status).toMatchObject({
      migration_state: 'complete',
      old_waf_status: 'disabled',
      new_waf_status: 'enabled',
    });
    const entry = (await ok('GET', paths(zone.id).entrypoint)) as { rules: EntryRule[] };
    expect(entry.rules.map((r) => r.action)).toEqual(['skip', 'execute', 'execute']);
    expect(entry.rules[1]!.action_parameters.overrides).toEqual({ rules: [{ id: target, action: 'log' }] });
    expect(entry.rules[2]!.action_parameters).toEqual({
      id: OWASP_RULESET,
      overrides: { categories: paranoia(2) },
    });
    const history = (await ok('GET', paths(zone.id).history)) as HistoryRow[];
    expect(history.at(-1)).toMatchObject({
      from: 'start',
      to: 'complete',
      actor: { type: 'user', name: 'ops@example.com' },
    });
    // The previous WAF's API is gone for this zone.
    const legacy = await f.call('GET', `/zones/${zone.id}/firewall/waf/packages`);
    expect(legacy.status).toBe(400);
    expect(legacy.body.errors[0]!.code).toBe(10706);
  });

  it('Business, signed in with an API token on a phone-sized screen: Review configuration, Deploy, upgraded', async () => {
    const zone = await legacyZone('blog', 'business');
    const token = await f.makeToken([zone.id], ['edit']);
    const page = await signIn({ token }, { width: 390, height: 844 });
    expect(await page.textContent('[data-testid=who]')).toContain('API token');
    await openZone(page, zone);
    await page.click('text=Review configuration');
    await page.waitForSelector('[data-testid=rule-1]');
    await page.click('button:has-text("Deploy")');
    await page.waitForSelector('[data-testid=upgrade-complete]');
    await page.screenshot({ path: screenshotPath('dashboard-business-complete'), fullPage: true });
    expect((await stateOf(zone)).migration_state).toBe('complete');
    const history = (await ok('GET', paths(zone.id).history)) as HistoryRow[];
    expect(history.at(-1)!.actor).toMatchObject({ type: 'api_token' });
  });

  it('Enterprise: Deploy → validation mode (banner stays) → events → adjusted → Ready to update → Turn off previous version', async () => {
    const zone = await legacyZone('bank', 'enterprise');
    const page = await signIn({ email: 'ops@example.com' });
    await openZone(page, zone);
    await page.click('text=Review configuration');
    await page.waitForSelector('[data-testid=rule-1]');
    await f.changed(zone.id, async () => {
      await page.click('button:has-text("Deploy")');
      await page.waitForSelector('text=Validation mode');
    });
    expect(await page.textContent('[data-testid=upgrade-banner]')).toContain('Ready to update');
    expect(await stateOf(zone)).toMatchObject({
      migration_state: 'validation',
      old_waf_status: 'enabled',
      new_waf_status: 'enabled',
    });
    expect(await page.textContent('[data-testid=waf-status]')).not.toContain('Disabled');
    await page.screenshot({ path: screenshotPath('dashboard-enterprise-validation') });

    // Review sampled logs: an attack through the edge proxy shows up in Security Events.
    const attack = await f.send(zone.name, ATTACKS.xss!.path);
    expect(attack.status).toBe(403);
    await f.edge.recorder.flush();
    await page.click('nav.tabs >> text=Security Events');
    await page.waitForSelector('[data-testid=events] tbody tr');
    const events = await page.textContent('[data-testid=events]');
    expect(events).toContain('block');
    expect(events).toContain('/search?q=');
    await page.screenshot({ path: screenshotPath('dashboard-enterprise-events') });

    // Adjust in validation mode: paranoia level 3 and one OWASP rule disabled; saved and recorded.
    const owaspRules = (
      (await ok('GET', `/accounts/${f.accountId}/rulesets/${OWASP_RULESET}`)) as { rules: { id: string }[] }
    ).rules;
    const disabled = owaspRules.find((r) => r.id !== ANOMALY_RULE)!.id;
    await page.click('nav.tabs >> text=Managed rules configuration');
    const owasp = page.locator('[data-testid=rule-1]');
    await owasp.waitFor();
    await owasp.locator('select[name=paranoia-1]').selectOption('3');
    await owasp.locator('input[name=override-rule-1]').fill(disabled);
    await owasp.locator('select[name=override-enabled-1]').selectOption('off');
    await owasp.locator('button:has-text("Add override")').click();
    await page.click('button:has-text("Save configuration")');
    await page.waitForSelector('[data-testid=configuration-saved]');
    const saved = (await ok('GET', paths(zone.id).entrypoint)) as { rules: EntryRule[] };
    expect(saved.rules[1]!.action_parameters.overrides?.categories).toEqual(paranoia(3));
    expect(saved.rules[1]!.action_parameters.overrides?.rules).toContainEqual({
      id: disabled,
      enabled: false,
    });
    const afterSave = (await ok('GET', paths(zone.id).history)) as HistoryRow[];
    expect(afterSave.at(-1)).toMatchObject({ from: 'validation', to: 'validation' });

    await page.click('nav.tabs >> text=WAF');
    await page.click('button:has-text("Ready to update")');
    await page.click('button:has-text("Turn off previous version")');
    await page.waitForSelector('[data-testid=upgrade-done]');
    await page.screenshot({ path: screenshotPath('dashboard-enterprise-complete') });
    expect(await stateOf(zone)).toMatchObject({ migration_state: 'complete', old_waf_status: 'disabled' });
    const finished = (await ok('GET', paths(zone.id).entrypoint)) as { rules: EntryRule[] };
    expect(finished.rules[1]!.action_parameters.overrides?.categories).toEqual(paranoia(3));
    await page.reload();
    await page.waitForSelector('[data-testid=upgrade-complete]');
  });

  it('Free: nothing to upgrade; moved to a paid plan, the zone gets the previous WAF and the banner', async () => {
    const zone = await legacyZone('hobby', 'free');
    const token = await f.makeToken(['*'], ['edit']);
    const page = await signIn({ token });
    await openZone(page, zone);
    expect(await page.textContent('[data-testid=no-previous-waf]')).toContain('never had the previous WAF');
    expect(await page.locator('[data-testid=upgrade-banner]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('dashboard-free') });

    await ok('PATCH', `/zones/${zone.id}`, { plan: { id: 'pro' } });
    await page.reload();
    await page.waitForSelector('[data-testid=upgrade-banner]');
    await page.click('text=Review configuration');
    await page.waitForSelector('[data-testid=rule-0]');
    await page.click('button:has-text("Deploy")');
    await page.waitForSelector('[data-testid=upgrade-complete]');
    const history = (await ok('GET', paths(zone.id).history)) as HistoryRow[];
    expect(history.map((e) => [e.from, e.to, e.cause])).toEqual([
      ['default', 'start', 'plan'],
      ['start', 'complete', 'pending'],
    ]);
  });

  it('a zone with URI-based overrides cannot be upgraded until they are deleted', async () => {
    const zone = await legacyZone('legacy', 'pro');
    const override = (await ok('POST', `/zones/${zone.id}/firewall/waf/overrides`, {
      urls: ['legacy.example.com/old/*'],
      rules: { '100001': 'disable' },
    })) as { id: string };
    const page = await signIn({ email: 'ops@example.com' });
    await openZone(page, zone);
    const banner = await page.textContent('[data-testid=upgrade-banner]');
    expect(banner).toContain('cannot be upgraded yet');
    expect(banner).toContain(override.id);
    expect(await page.locator('text=Review configuration').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('dashboard-ineligible') });

    await ok('DELETE', `/zones/${zone.id}/firewall/waf/overrides/${override.id}`);
    await page.reload();
    await page.waitForSelector('text=Review configuration');
  });
});
