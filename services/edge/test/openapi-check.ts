import { Ajv, type ValidateFunction } from 'ajv';

/** One exchange seen on the wire. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}

/**
 * Checks recorded responses against the served OpenAPI document: each exchange must hit a documented
 * operation, with a documented status, and its body must validate against that response's schema.
 */
export class OpenApiChecker {
  private readonly ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  private readonly operations: { regex: RegExp; template: string; method: string; op: Operation }[] = [];
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(doc: { paths: Record<string, Record<string, Operation>> }) {
    for (const [template, item] of Object.entries(doc.paths)) {
      const regex = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, op] of Object.entries(item))
        this.operations.push({ regex, template, method: method.toUpperCase(), op });
    }
  }

  /** Problems with one exchange (empty when it conforms). */
  check(x: Exchange): string[] {
    const candidates = this.operations.filter((o) => o.method === x.method && o.regex.test(x.path));
    // Prefer literal segments over parameters (…/rulesets/phases/… over …/rulesets/{ruleset_id}/…).
    candidates.sort((a, b) =>
      (b.template.match(/\{/g)?.length ?? 0) < (a.template.match(/\{/g)?.length ?? 0) ? 1 : -1,
    );
    const found = candidates[0];
    if (!found) return [`${x.method} ${x.path}: no documented operation`];
    const responses = found.op.responses ?? {};
    const key = String(x.status);
    const response = responses[key] ?? responses[`${key[0]}XX`] ?? responses[`${key[0]}xx`];
    if (!response) return [`${x.method} ${found.template}: status ${x.status} is not documented`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return x.status === 204 ? [] : [`${x.method} ${found.template} ${x.status}: no schema`];
    const cacheKey = `${x.method} ${found.template} ${key}`;
    let validate = this.cache.get(cacheKey);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.cache.set(cacheKey, validate);
    }
    if (validate(x.body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${cacheKey}: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }
}

/** A fetch that records every /client/v4 exchange. */
export function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const text = await response.clone().text();
    log.push({
      method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
      path: url.pathname,
      status: response.status,
      body: text === '' ? null : JSON.parse(text),
    });
    return response;
  };
}
