import type { AppDeps, ServiceModule } from '@cairn/kit';
import { assertBuilt } from '@cairn/kit/web-app';
import cookie from '@fastify/cookie';
import { analyticsApi } from './analytics/routes.ts';
import { EDGE_API_PREFIX, edgeApi } from './api/plugin.ts';
import { type EdgeConfig, loadEdgeConfig } from './config.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { DASHBOARD_UI } from './dashboard/web-app.ts';
import type { EdgeDeps } from './deps.ts';
import { EdgeEngine } from './engine/engine.ts';
import { EventRecorder } from './events/recorder.ts';
import { geoDatabase } from './geo/database.ts';
import { Catalogue } from './managed/catalogue.ts';
import { edgeMigrations } from './migrations.ts';
import { loadProxyConfig, type ProxyConfig } from './proxy/config.ts';
import { createEdgeProxy, type EdgeProxy } from './proxy/server.ts';

export { DEFAULT_ACCOUNT, ensureAccount, getAccount } from './api/accounts/service.ts';
export type { Account } from './api/accounts/store.ts';
export { listAccounts } from './api/accounts/store.ts';
export { AREA_HELP, AREAS, PERMISSIONS, parsePermissions } from './api/auth/permissions.ts';
export { type ApiToken, createApiToken, listApiTokens, revokeApiToken } from './api/auth/service.ts';
export { EDGE_CODES, edgeError } from './api/errors.ts';
export { isHexId, newHexId } from './api/ids.ts';
export {
  type ActiveWafs,
  activeWafs,
  type EntrypointRules,
  managedEntrypoint,
} from './api/migration/active-wafs.ts';
export { MIGRATION_CODES } from './api/migration/errors.ts';
export {
  exportTerraform,
  renderTerraform,
  type TerraformExport,
} from './api/migration/iac/terraform.ts';
export {
  MAPPING_ROWS,
  type MigratedConfiguration,
  type MigratedRule,
} from './api/migration/mapping/index.ts';
export {
  checkUpgrade,
  newWafEnabled,
  previousWafEnabled,
  type UpgradeRequest,
  upgradeConfiguration,
  upgradeHistory,
  upgradeStatus,
  upgradeZone,
} from './api/migration/service.ts';
export type { Actor, MigrationEvent } from './api/migration/store.ts';
export { EDGE_API_PREFIX, edgeRoutes } from './api/plugin.ts';
export { checkExpression, rulesScheme } from './api/rulesets/expression.ts';
export type { RuleContent, StoredRule } from './api/rulesets/model.ts';
export { PHASES, SUPPORTED_PHASES } from './api/rulesets/phases.ts';
export type { RuleInput } from './api/rulesets/rule-input.ts';
export {
  type EntrypointInput,
  getEntrypoint,
  putEntrypoint,
  writeEntrypoint,
} from './api/rulesets/service.ts';
export { WAF_WARNING_CODE, wafWarnings } from './api/rulesets/waf-warnings.ts';
export { MANAGED_PACKAGE_ID, OWASP_PACKAGE_ID } from './api/waf-legacy/catalogue.ts';
export { assertLegacyWaf } from './api/waf-legacy/service.ts';
export { atLeast, findPlan, PLAN_NAMES, type PlanName, RULES_PLAN } from './api/zones/plans.ts';
export { changeZone, createZone, zoneJson } from './api/zones/service.ts';
export { findSetting, SETTINGS, wafSettingOn, writeSetting } from './api/zones/settings.ts';
export {
  findZone,
  findZoneByName,
  listZones,
  lockZone,
  type MigrationState,
  updateZone,
  type Zone,
} from './api/zones/store.ts';
export { type EdgeConfig, loadEdgeConfig } from './config.ts';
export { createDashboardUser, resetDashboardPassword } from './dashboard/service.ts';
export { type DashboardUser, listUsers as listDashboardUsers } from './dashboard/store.ts';
export { bootstrapEdgeDemo, DEMO_LOGIN, DEMO_ZONE, demoLines, type EdgeDemo } from './demo.ts';
export type { EdgeDeps } from './deps.ts';
export {
  CONFIG_CHANNEL,
  EdgeEngine,
  type EdgeRequest,
  type Verdict,
  type ZonePlan,
} from './engine/index.ts';
export { EventRecorder } from './events/recorder.ts';
export { GeoDatabase, type GeoDatabaseInfo, type GeoInfo, geoDatabase } from './geo/database.ts';
export { type LegacyWafConfig, readLegacyWafConfig } from './legacy-config.ts';
export { Catalogue, EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from './managed/catalogue.ts';
export { ANOMALY_RULE_ID, DEFAULT_SCORE_THRESHOLD } from './managed/owasp.ts';
export { edgeMigrations } from './migrations.ts';
export { loadProxyConfig, type ProxyConfig } from './proxy/config.ts';
export type { EdgeProxy } from './proxy/server.ts';

export interface Edge {
  module: ServiceModule;
  deps: EdgeDeps;
  /** The data plane's engine (zone plans, cached and invalidated by NOTIFY) and event recorder. */
  engine: EdgeEngine;
  recorder: EventRecorder;
  /** Throws a clear error when the dashboard was not built (npm run build); start never builds it. */
  checkDashboardBuilt(): void;
  /** Starts the reverse proxy (EDGE_PORT) with the engine's change listener and the event writer. */
  startProxy(listen: { port: number; host: string }): Promise<EdgeProxy>;
  /** Stops the proxy (graceful), the listener and the writer (flushing what is queued). */
  stopProxy(): Promise<void>;
}

/** The edge service: the API v4 under /client/v4 on the API port. */
export function createEdge(
  app: Pick<AppDeps, 'db' | 'clock' | 'log'> & Partial<Pick<AppDeps, 'config' | 'metrics'>>,
  config: Readonly<EdgeConfig> = loadEdgeConfig(),
  proxyConfig: Readonly<ProxyConfig> = loadProxyConfig(),
): Edge {
  const catalogue = new Catalogue(config.crsDir);
  catalogue.announce(app.log);
  const deps: EdgeDeps = { db: app.db, clock: app.clock, log: app.log, catalogue };
  const engine = new EdgeEngine(
    { db: app.db, catalogue, log: app.log, geo: (address) => geoDatabase().lookup(address) },
    {
      crsDir: config.crsDir,
      bodyLimit: proxyConfig.bodyLimit,
      planTtlMs: proxyConfig.planTtlMs,
      maxCrsEngines: proxyConfig.crsEngines,
      timeBudgetMs: proxyConfig.wafTimeBudgetMs,
      wafWorkers: proxyConfig.wafWorkers,
      wafPoolThreshold: proxyConfig.wafPoolThreshold,
      wafPoolQueue: proxyConfig.wafPoolQueue,
    },
  );
  const recorder = new EventRecorder(
    { ...deps, ...(app.metrics ? { metrics: app.metrics } : {}) },
    {
      logSampleRate: proxyConfig.eventsLogSampleRate,
      sampleAfter: proxyConfig.eventsSampleAfter,
      retentionDays: proxyConfig.eventsRetentionDays,
      maxRows: proxyConfig.eventsMaxRows,
      pruneEveryMs: proxyConfig.eventsPruneEverySeconds * 1000,
      maxQueue: 50_000,
      flushMs: 250,
    },
  );
  let proxy: EdgeProxy | undefined;
  return {
    deps,
    engine,
    recorder,
    checkDashboardBuilt: () => assertBuilt(DASHBOARD_UI, 'The edge dashboard (services/edge/web)'),
    async startProxy(listen) {
      if (proxy) return proxy;
      geoDatabase(); // read the IP database now (~0.4 s), not on the first request that needs it
      await engine.start();
      recorder.start();
      proxy = await createEdgeProxy({ engine, recorder, clock: app.clock, log: app.log }, proxyConfig).listen(
        listen.port,
        listen.host,
      );
      return proxy;
    },
    async stopProxy() {
      const running = proxy;
      proxy = undefined;
      if (running) await running.close();
      await engine.stop();
      await recorder.stop();
    },
    module: {
      name: 'edge',
      title:
        'Edge API v4: zones, API tokens, the previous WAF, firewall rules, page rules and the Rulesets API',
      migrations: edgeMigrations,
      // The IP database the geolocation fields read, and how current it is.
      readiness: () => ({ ip_database: geoDatabase().info }),
      plugin: async (root) => {
        await root.register(cookie);
        await root.register(edgeApi(deps), { prefix: EDGE_API_PREFIX });
        await root.register(analyticsApi(deps, proxyConfig.eventsRetentionDays), { prefix: EDGE_API_PREFIX });
        await root.register(dashboardRoutes(deps, app.config?.publicUrl ?? ''));
      },
    },
  };
}
