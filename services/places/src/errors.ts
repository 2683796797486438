import { badRequest, CairnError } from '@cairn/kit';

/** The places API's recurring errors, each naming the parameter and how to fix it. */
export const invalidParameter = (parameter: string, detail: string) =>
  badRequest(`Invalid ${parameter}: ${detail}`, { parameter });

export const conflictingParameters = (a: string, b: string, hint: string) =>
  badRequest(`${a} and ${b} cannot be used together; ${hint}`, { parameter: b });

export const unexpectedFields = (names: readonly string[]) =>
  badRequest(`Unexpected field(s): '${names.join(',')}' provided.`, { parameter: 'fields' });

export const placeNotFound = (id: string) =>
  new CairnError(404, 'not_found', `Place not found: no place has fsq_place_id "${id.slice(0, 80)}"`);

export const matchNotFound = () => new CairnError(404, 'not_found', 'Match not found');

export const unsupportedCountry = (cc: string) =>
  new CairnError(422, 'unprocessable', `Unsupported country: cc "${cc}" is not a country in the gazetteer`, {
    location: { parameter: 'cc' },
  });
