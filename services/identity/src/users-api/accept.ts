import { notAcceptable } from '@cairn/kit';
import type { FastifyRequest } from 'fastify';

/** The users API answers JSON only; a client that cannot take JSON gets 406 rather than a surprise. */
export async function requireJsonAccept(request: FastifyRequest) {
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') return;
  const acceptable = accept.split(',').some((part) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const zeroQ = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
    return !zeroQ && ['application/json', 'application/*', '*/*'].includes(type.trim());
  });
  if (!acceptable) {
    throw notAcceptable(
      `This API answers application/json, which "Accept: ${accept.slice(0, 60)}" does not allow; send Accept: application/json`,
    );
  }
}
