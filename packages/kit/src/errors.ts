/**
 * The one error class. Throwers say what went wrong (status, code, message, where); each service's error
 * handler renders its API's wire shape. 5xx messages are never shown to clients (expose = false).
 */
export interface ErrorLocation {
  /** JSON pointer into a request body, e.g. "/rules/0/expression". */
  pointer?: string;
  /** Query parameter or header the error is about. */
  parameter?: string;
  /** "line:column" or "file:line" for source text. */
  position?: string;
}

export class CairnError extends Error {
  readonly status: number;
  readonly code: string;
  readonly expose: boolean;
  readonly location: ErrorLocation | undefined;
  readonly headers: Record<string, string>;
  /** Service-specific extras (an edge error code, an OAuth redirect target, …). */
  readonly details: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: {
      location?: ErrorLocation;
      headers?: Record<string, string>;
      details?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CairnError';
    this.status = status;
    this.code = code;
    this.expose = status < 500;
    this.location = options.location;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }

  /** A copy with more detail: catalogue entries stay generic, call sites add specifics. */
  with(options: {
    message?: string;
    location?: ErrorLocation;
    headers?: Record<string, string>;
    details?: Record<string, unknown>;
  }): CairnError {
    return new CairnError(this.status, this.code, options.message ?? this.message, {
      location: options.location ?? this.location,
      headers: { ...this.headers, ...options.headers },
      details: { ...this.details, ...options.details },
    });
  }
}

export const badRequest = (message: string, location?: ErrorLocation) =>
  new CairnError(400, 'bad_request', message, location ? { location } : {});
export const unauthorized = (message: string) => new CairnError(401, 'unauthorized', message);
export const forbidden = (message: string) => new CairnError(403, 'forbidden', message);
export const notFound = (message: string) => new CairnError(404, 'not_found', message);
export const methodNotAllowed = (message: string, allow: string[]) =>
  new CairnError(405, 'method_not_allowed', message, { headers: { allow: allow.join(', ') } });
export const notAcceptable = (message: string) => new CairnError(406, 'not_acceptable', message);
export const conflict = (message: string) => new CairnError(409, 'conflict', message);
export const payloadTooLarge = (message: string) => new CairnError(413, 'payload_too_large', message);
export const unsupportedMediaType = (message: string) =>
  new CairnError(415, 'unsupported_media_type', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new CairnError(429, 'too_many_requests', message, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
export const serviceUnavailable = (message: string) => new CairnError(503, 'service_unavailable', message);

/**
 * Turns anything thrown into a CairnError. Fastify's own errors (bad JSON, body too large, schema
 * validation) carry a statusCode and are kept as client errors; everything else is a 500.
 */
export function toCairnError(error: unknown): CairnError {
  if (error instanceof CairnError) return error;
  if (error && typeof error === 'object' && 'statusCode' in error) {
    const status = Number((error as { statusCode: unknown }).statusCode);
    const message = error instanceof Error ? error.message : 'Bad request';
    const code = 'code' in error ? String((error as { code: unknown }).code) : 'bad_request';
    if (status >= 400 && status < 500) return new CairnError(status, code, message, { cause: error });
  }
  return new CairnError(500, 'internal_error', 'Internal server error', { cause: error });
}
