import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { badRequest, type CairnError } from './errors.ts';

const PLACES: Record<string, string> = {
  querystring: 'Query parameter',
  params: 'Path parameter',
  headers: 'Header',
  body: 'Body field',
};

/**
 * Schema validation failures as messages that name the input: a schema may carry `x-message` with the
 * sentence to show (e.g. "must be a positive integer"); otherwise Ajv's own wording is used.
 */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): CairnError {
  const first = errors[0]!;
  const params = first.params as { missingProperty?: string; additionalProperty?: string };
  const path = first.instancePath.replace(/^\//, '').split('/').filter(Boolean);
  if (params.missingProperty) path.push(params.missingProperty);
  const name = path.join('.');
  const parent = (first as { parentSchema?: Record<string, unknown> }).parentSchema;
  const custom = typeof parent?.['x-message'] === 'string' ? (parent['x-message'] as string) : undefined;

  if (dataVar === 'body') {
    const pointer = `/${path.join('/')}`;
    if (params.additionalProperty) {
      return badRequest(`Body field ${[...path, params.additionalProperty].join('.')} is not allowed`, {
        pointer: `${pointer === '/' ? '' : pointer}/${params.additionalProperty}`,
      });
    }
    const what = name === '' ? 'Request body' : `Body field ${name}`;
    return badRequest(`${what} ${custom ?? first.message}`, { pointer: name === '' ? '' : pointer });
  }
  const place = PLACES[dataVar] ?? 'Input';
  if (params.missingProperty) return badRequest(`${place} ${name} is required`, { parameter: name });
  return badRequest(`${place} ${name} ${custom ?? first.message}`, { parameter: name });
}
