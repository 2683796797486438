import { CairnError } from '@cairn/kit';

/**
 * The edge API's error catalogue. Codes are the real service's where the reference knows them
 * (10000, 10003, 7003/7000, 20217, 1027, 50002, 1061); the rest is one generic validation code.
 */
export const EDGE_CODES = {
  authentication: 10000,
  internal: 10001,
  validation: 10400,
  methodNotAllowed: 10405,
  headersTooLarge: 10431,
  entrypointNotFound: 10003,
  rulesetNotFound: 10003,
  objectNotFound: 7003,
  noRoute: 7000,
  entrypointExists: 20217,
  readOnly: 20227,
  onlyAnomalyPackages: 1027,
  notEntitled: 50002,
  zoneExists: 1061,
  ownershipUnverified: 1117,
  crsMissing: 10503,
} as const;

export interface EdgeErrorItem {
  code: number;
  message: string;
  source?: { pointer?: string; parameter?: string };
}

export function edgeError(
  status: number,
  code: number,
  message: string,
  where: { pointer?: string; parameter?: string; more?: EdgeErrorItem[] } = {},
): CairnError {
  const location =
    where.pointer !== undefined
      ? { pointer: where.pointer }
      : where.parameter !== undefined
        ? { parameter: where.parameter }
        : undefined;
  return new CairnError(status, `edge_${code}`, message, {
    ...(location ? { location } : {}),
    details: { edgeCode: code, ...(where.more ? { more: where.more } : {}) },
  });
}

/** Bad input in a request body: `'<value>' is not a valid value for <name> because <reason>`. */
export function invalidValue(pointer: string, value: unknown, reason: string): CairnError {
  const name =
    pointer
      .split('/')
      .filter((s) => !/^\d+$/.test(s))
      .pop() || 'request body';
  return edgeError(
    400,
    EDGE_CODES.validation,
    `${quote(value)} is not a valid value for ${name} because ${reason}`,
    {
      pointer,
    },
  );
}

export const invalidBody = (pointer: string, message: string) =>
  edgeError(400, EDGE_CODES.validation, message, { pointer });

export const invalidParameter = (parameter: string, message: string) =>
  edgeError(400, EDGE_CODES.validation, message, { parameter });

export function quote(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 200 ? `${value.slice(0, 200)}…` : value}'`;
  const json = JSON.stringify(value) ?? String(value);
  return `'${json.length > 200 ? `${json.slice(0, 200)}…` : json}'`;
}

/** Cloudflare's answer for a path whose object id is malformed or unknown. */
export function noSuchObject(path: string, reason: string, status = 404): CairnError {
  return edgeError(
    status,
    EDGE_CODES.objectNotFound,
    `Could not route to ${path}, perhaps your object identifier is invalid? ${reason}`,
    {
      more: [{ code: EDGE_CODES.noRoute, message: 'No route for that URI' }],
    },
  );
}

export const authenticationError = (status: 401 | 403, detail: string) =>
  edgeError(status, EDGE_CODES.authentication, `Authentication error: ${detail}`);

export const notEntitled = (message: string, pointer?: string) =>
  edgeError(400, EDGE_CODES.notEntitled, message, pointer === undefined ? {} : { pointer });

export const rulesetNotFound = (message: string) => edgeError(404, EDGE_CODES.rulesetNotFound, message);

export const readOnly = (message: string) => edgeError(403, EDGE_CODES.readOnly, message);

export const crsMissing = (detail: string) =>
  edgeError(
    503,
    EDGE_CODES.crsMissing,
    `${detail}: the OWASP Core Rule Set is not installed. Install it with \`apt-get install modsecurity-crs\`, or set CAIRN_CRS_DIR to a CRS 3.3 directory.`,
  );
