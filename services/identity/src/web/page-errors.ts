import { toCairnError } from '@cairn/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorPage } from './pages.ts';
import { pageHeaders } from './security.ts';

/** Errors on the web pages are pages too; server errors are logged and shown without their details. */
export function renderPageError(raw: Error, request: FastifyRequest, reply: FastifyReply) {
  const error = toCairnError(raw);
  if (error.status >= 500) request.log.error({ err: raw }, 'page failed');
  pageHeaders(reply);
  const title =
    error.status === 404 ? 'Not found' : error.status === 403 ? 'Not allowed' : 'Something went wrong';
  return reply
    .status(error.status)
    .send(errorPage(title, error.expose ? error.message : 'Please try again later.'));
}
