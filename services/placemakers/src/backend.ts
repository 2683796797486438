import type { AuthContext } from '@cairn/kit';

/**
 * What the editor needs from the places service, as a port: the composition root wires it to the places
 * service's functions. Every call carries the editor user's attribution (an oauth_user context).
 */
export interface PlacemakersBackend {
  /** The places API's search with its own query parameters; returns its response body. */
  search(auth: AuthContext, query: Record<string, string>): Promise<unknown>;
  /** One place as the places API shows it, or a 404 CairnError. */
  place(auth: AuthContext, id: string): Promise<unknown>;
}
