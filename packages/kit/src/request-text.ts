import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';
import { tooDeep } from './json-body.ts';
import { findUnstorableText, type TextSource, unstorableTextError } from './storable-text.ts';
import { parseUrlEncoded, type UrlEncodedProblem, type UrlEncodedValues } from './url-encoded.ts';
import { decodeUtf8 } from './utf8.ts';

/**
 * Request text that the database can't store or that does not decode (NUL, lone surrogates, invalid
 * UTF-8, invalid percent-encoding) is refused for every route of every service, before validation and
 * handlers: a 400 naming the parameter, rendered by the route's own error handler (OAuth RFC shape, the
 * edge envelope, `{message}`). Query strings and bodies are decoded strictly (JSON bodies nest at most
 * 64 levels, counted before parsing); a `preValidation` hook
 * checks path parameters, the query, headers and the parsed body. Forms are parsed only where a service
 * asks for them (`acceptFormBodies`).
 */

const QUERY_PROBLEM = Symbol('cairn.queryProblem');
const FORM_BODY_LIMIT = 64 * 1024;

type ParsedQuery = UrlEncodedValues & { [QUERY_PROBLEM]?: UrlEncodedProblem };

/** Fastify's `querystringParser`: it can't fail a request, so a problem rides along for the hook. */
export function parseQueryString(text: string): UrlEncodedValues {
  const { values, problem } = parseUrlEncoded(text);
  if (problem) Object.defineProperty(values, QUERY_PROBLEM, { value: problem });
  return values;
}

/** Installs the strict body parsers and the check hook on the root instance, before any service. */
export function refuseUnstorableRequestText(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const decoded = decodeUtf8(body as Buffer);
    if ('problem' in decoded) return done(unstorableTextError('body', [], decoded.problem), undefined);
    const deep = tooDeep(decoded.text);
    if (deep) return done(badRequest(`Request body ${deep}`, { pointer: '' }), undefined);
    parseJson(request, decoded.text, done);
  });
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) => {
    const decoded = decodeUtf8(body as Buffer);
    if ('problem' in decoded) return done(unstorableTextError('body', [], decoded.problem), undefined);
    done(null, decoded.text);
  });
  app.addHook('preValidation', rejectUnstorableRequestText);
}

/**
 * Accepts `application/x-www-form-urlencoded` bodies in the calling plugin (the services that take HTML
 * forms or RFC 6749 requests), decoded strictly; a field that does not decode or can't be stored is a 400.
 */
export function acceptFormBodies(app: FastifyInstance, options: { bodyLimit?: number } = {}) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer', bodyLimit: options.bodyLimit ?? FORM_BODY_LIMIT },
    (_request, body, done) => {
      const { values, problem } = parseUrlEncoded(body as Buffer);
      if (problem) return done(unstorableTextError('form', [problem.name], problem.problem), undefined);
      const found = findUnstorableText(values);
      if (found) return done(unstorableTextError('form', found.path, found.problem), undefined);
      done(null, values);
    },
  );
}

async function rejectUnstorableRequestText(request: FastifyRequest, _reply: FastifyReply) {
  const problem = (request.query as ParsedQuery | undefined)?.[QUERY_PROBLEM];
  if (problem) throw unstorableTextError('query', [problem.name], problem.problem);
  const sources: [TextSource, unknown][] = [
    ['params', request.params],
    ['query', request.query],
    ['headers', request.headers],
    ['body', request.body],
  ];
  for (const [source, value] of sources) {
    const found = findUnstorableText(value);
    if (found) throw unstorableTextError(source, found.path, found.problem);
  }
}
