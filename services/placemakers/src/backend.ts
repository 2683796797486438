import type { AuthContext } from '@cairn/kit';

export type SuggestionKind = 'edit' | 'remove' | 'flag' | 'merge' | 'tip';
export type Params = Record<string, string>;

/**
 * What the editor needs from the places service, as a port: the composition root wires it to the places
 * service's functions, which take the same parameters as the places API and answer the same bodies. Every
 * call carries the editor user's attribution (an oauth_user context: the person, through the app).
 */
export interface PlacemakersBackend {
  search(auth: AuthContext, query: Params): Promise<unknown>;
  place(auth: AuthContext, id: string): Promise<unknown>;
  history(auth: AuthContext, id: string): Promise<unknown>;
  /** The place's tips, newest first (an added tip shows once accepted). */
  tips(auth: AuthContext, id: string): Promise<unknown>;
  suggest(auth: AuthContext, id: string, kind: SuggestionKind, params: Params): Promise<unknown>;
  suggestPlace(auth: AuthContext, params: Params): Promise<unknown>;
  status(auth: AuthContext, query: Params): Promise<unknown>;
  review(auth: AuthContext, query: Params): Promise<unknown>;
  vote(auth: AuthContext, editId: string, params: Params): Promise<unknown>;
  accuracy(auth: AuthContext): Promise<unknown>;
}
