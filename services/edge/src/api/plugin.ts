import { type CairnError, errorHandler, parseJsonBody } from '@cairn/kit';
import type { FastifyInstance } from 'fastify';
import type { EdgeDeps } from '../deps.ts';
import { securityEventRoutes } from '../events/routes.ts';
import { accountRoutes } from './accounts/routes.ts';
import { tokenRoutes } from './auth/routes.ts';
import { dnsRecordRoutes } from './dns-records/routes.ts';
import { edgeErrorShape } from './envelope.ts';
import { EDGE_CODES, invalidBody } from './errors.ts';
import { filterRoutes } from './filters/routes.ts';
import { firewallRuleRoutes } from './firewall-rules/routes.ts';
import { migrationRoutes, replacedByMigration } from './migration/routes.ts';
import { pageRuleRoutes } from './page-rules/routes.ts';
import type { EdgeRoute } from './route.ts';
import { rulesetRoutes } from './rulesets/routes.ts';
import { answerInEnvelope } from './server-errors.ts';
import { compileOnFirstUse } from './validation.ts';
import { wafLegacyRoutes } from './waf-legacy/routes.ts';
import { activationRoutes } from './zones/activation-routes.ts';
import { zoneRoutes } from './zones/routes.ts';

export const EDGE_API_PREFIX = '/client/v4';

/** Path parameters are text: a params schema that asks nothing more of them has nothing to check. */
const onlyText = (schema: object) =>
  Object.values((schema as { properties?: Record<string, object> }).properties ?? {}).every((p) =>
    Object.keys(p).every((k) => k === 'type' || k === 'description'),
  );
const acceptText = () => true;

export const edgeRoutes: readonly EdgeRoute[] = [
  ...accountRoutes,
  ...tokenRoutes,
  ...zoneRoutes,
  ...activationRoutes,
  ...dnsRecordRoutes,
  ...wafLegacyRoutes,
  ...filterRoutes,
  ...firewallRuleRoutes,
  ...pageRuleRoutes,
  // The WAF upgrade (issue 8) takes over the entry-point PUT, which gains waf_migration.
  ...rulesetRoutes.filter((r) => !replacedByMigration(r)),
  ...migrationRoutes,
  ...securityEventRoutes,
];

/**
 * The edge API v4 as an encapsulated plugin: its own JSON parser (strict, Cloudflare's wording), its own
 * error and not-found handlers rendering the envelope. Route schemas both validate (the edge's Ajv,
 * validation.ts: no coercion, unknown fields refused) and document; responses are not serialized by
 * schema (they only document).
 */
export function edgeApi(deps: EdgeDeps) {
  return async function edgeApiPlugin(app: FastifyInstance) {
    answerInEnvelope(app.server, EDGE_API_PREFIX);
    app.setErrorHandler(errorHandler(edgeErrorShape));
    app.setNotFoundHandler(async function edgeRouteNotFound(request) {
      const error: CairnError = app.routeIndex.notFoundError(request);
      if (error.status === 405) throw error.with({ details: { edgeCode: EDGE_CODES.methodNotAllowed } });
      throw error.with({
        message: `No route for that URI: ${error.message.replace(/^No route /, '')}`,
        details: { edgeCode: EDGE_CODES.noRoute },
      });
    });
    app.setValidatorCompiler(({ schema, httpPart }) =>
      httpPart === 'params' && onlyText(schema) ? acceptText : compileOnFirstUse(schema),
    );
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, bytes, done) => {
      // kit's strict JSON body (UTF-8, depth limit); here an empty body is no body, and a refusal is
      // worded as the real service's.
      const parsed = parseJsonBody(bytes as Buffer);
      if ('problem' in parsed) done(invalidBody('', `invalid JSON: ${parsed.problem}`), undefined);
      else done(null, parsed.value);
    });
    for (const r of edgeRoutes) r.mount(app, deps);
  };
}
