import { oauthError } from '../errors.ts';
import type { AuthorizeStep } from './request.ts';

/** RFC 6749 §3.1: request parameters must not be included more than once. */
export const checkRepeated: AuthorizeStep = (params) => {
  const repeated = [...params.repeated];
  if (repeated.length > 0)
    throw oauthError.invalidRequest(`Parameter ${repeated[0]} is given more than once`);
};

/** Only the authorization code grant: response_type=code. */
export const checkResponseType: AuthorizeStep = (params) => {
  const type = params.values.response_type;
  if (!type) throw oauthError.invalidRequest('Parameter response_type is required; use response_type=code');
  if (type !== 'code') {
    throw oauthError.unsupportedResponseType(
      `response_type "${type.slice(0, 40)}" is not supported; use code`,
    );
  }
};

/** state is echoed; it is opaque to us but bounded. */
export const checkState: AuthorizeStep = (params, request) => {
  const state = params.values.state;
  if (state !== undefined && state.length > 2048)
    throw oauthError.invalidRequest('Parameter state is longer than 2048 characters');
  request.state = state;
};

/** mode=placemaker selects the place-editing authorization interface; no other mode exists. */
export const checkMode: AuthorizeStep = (params, request) => {
  const mode = params.values.mode;
  if (mode !== undefined && mode !== 'placemaker') {
    throw oauthError.invalidRequest(
      `Parameter mode "${mode.slice(0, 40)}" is not supported; use mode=placemaker or leave it out`,
    );
  }
  request.placemaker = mode === 'placemaker';
};
