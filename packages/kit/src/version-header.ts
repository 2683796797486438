import type { FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

/** The one API version of the seeds. */
export const API_VERSION = '2025-06-17';

/**
 * A preValidation hook requiring `header` to hold a supported version. The real service answers
 * "Please provide a valid version."; we keep that sentence and add what was wrong and the fix.
 */
export function requireVersionHeader(header: string, supported: readonly string[] = [API_VERSION]) {
  const name = header.toLowerCase();
  return async function checkVersionHeader(request: FastifyRequest) {
    const value = request.headers[name];
    if (value === undefined || value === '') {
      throw badRequest(
        `Please provide a valid version. The ${header} header is missing; send ${header}: ${supported.join(' or ')}`,
        {
          parameter: header,
        },
      );
    }
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (!supported.includes(text)) {
      throw badRequest(
        `Please provide a valid version. ${header} "${text.slice(0, 40)}" is not supported; use ${supported.join(' or ')}`,
        { parameter: header },
      );
    }
  };
}
