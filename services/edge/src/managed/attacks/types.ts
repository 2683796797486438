/**
 * An attack family's detection over one decoded value: what it found (a fingerprint or the matched text,
 * for the event), or undefined. Each runs in time linear in the value.
 */
export type AttackMatcher = (value: string) => string | undefined;

/** Where in the request a value was found. Cookies are apart from the other headers. */
export type InputLocation = 'path' | 'query' | 'body' | 'header' | 'cookie';

/** One value of the request, decoded once, as a parser would hand it to the application. */
export interface InspectedInput {
  location: InputLocation;
  /** The argument, key, header or cookie name (the path is named `path`). */
  name: string;
  value: string;
}
