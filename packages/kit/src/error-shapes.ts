import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from './auth.ts';
import { type CairnError, toCairnError } from './errors.ts';

/** The three wire shapes of DESIGN.md. Each service picks one for its error handler. */
export type ErrorShape = (error: CairnError) => unknown;

/** Places and users APIs: `{"message": "…"}`. */
export const messageShape: ErrorShape = (error) => ({ message: error.message });

/** OAuth endpoints, RFC 6749 §5.2: `{"error", "error_description"}`. */
export const oauthShape: ErrorShape = (error) => ({ error: error.code, error_description: error.message });

/** Edge API v4 envelope; `details.edgeCode` carries the numeric code of the reference. */
export const edgeShape: ErrorShape = (error) => {
  const item: { code: number; message: string; source?: { pointer: string } } = {
    code: typeof error.details.edgeCode === 'number' ? error.details.edgeCode : defaultEdgeCode(error.status),
    message: error.message,
  };
  if (error.location?.pointer !== undefined) item.source = { pointer: error.location.pointer };
  return { result: null, success: false, errors: [item], messages: [] };
};

function defaultEdgeCode(status: number): number {
  if (status === 401 || status === 403) return 10000;
  if (status === 404) return 7003;
  if (status === 405) return 10405;
  if (status >= 500) return 10001;
  return 10400;
}

/**
 * Who made the call, on the error's log line: fields of the credential the request was authenticated with.
 * Added here, where a line is written, rather than with a child logger per request (pino's child costs
 * ~10–20 µs, paid by every call though few ever log).
 */
function attribution(auth: AuthContext | undefined) {
  if (!auth) return {};
  return {
    organization_id: auth.organizationId,
    app_id: auth.appId,
    user_id: auth.userId,
    credential_kind: auth.kind,
  };
}

/** A Fastify error handler that renders `shape`, sets the error's headers and logs server errors. */
export function errorHandler(shape: ErrorShape) {
  return function renderError(raw: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
    const error = toCairnError(raw);
    const who = attribution(request.auth);
    if (error.status >= 500) request.log.error({ err: raw, ...who }, 'request failed');
    else request.log.info({ status: error.status, code: error.code, ...who }, error.message);
    for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
    return reply.status(error.status).send(shape(error));
  };
}
