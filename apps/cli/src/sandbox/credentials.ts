// A person's credentials for tests: a third-party user's access token and a session token, made through the
// authorization-code flow's own steps in this process (identity's grantInProcess), never by scraping pages.
import { grantInProcess, type Identity, sessionTokenInProcess } from '@cairn/identity';

/** A registered app as its developer knows it. */
export interface AppCredentials {
  clientId: string;
  clientSecret: string;
  /** One of the app's registered redirect URIs. Default: its first. */
  redirectUri?: string;
}

export interface UserAccessTokenInput {
  app: AppCredentials;
  /** An account that signs in with its password; none: a new person signs up. */
  person?: { email: string; password: string };
  /** Ask for the placemaker permission (mode=placemaker): needed for session tokens and the editor. */
  placemaker?: boolean;
}

export interface UserAccessToken {
  /** "at_…": the bearer for the places and users APIs, as the person. */
  accessToken: string;
  /** "places", or "places placemaker". */
  scope: string;
  userId: number;
  /** The person's email (the new one, when none was given). */
  email: string;
}

/** From an access token that has the placemaker permission, or from a new grant that asks for it. */
export type SessionTokenInput = { accessToken: string } | Omit<UserAccessTokenInput, 'placemaker'>;

export interface SessionToken {
  /** "st_…": valid 10 minutes, once. */
  sessionToken: string;
  /** The editor's address with the token: /placemakers/home?session_token=… */
  editorUrl: string;
  /** The access token it was made from. */
  accessToken: string;
  userId: number;
}

export interface SandboxCredentials {
  userAccessToken(input: UserAccessTokenInput): Promise<UserAccessToken>;
  sessionToken(input: SessionTokenInput): Promise<SessionToken>;
}

export function sandboxCredentials(identity: Pick<Identity, 'deps'>, publicUrl: string): SandboxCredentials {
  const { deps } = identity;
  async function userAccessToken(input: UserAccessTokenInput): Promise<UserAccessToken> {
    const grant = await grantInProcess(deps, input);
    return { accessToken: grant.access_token, scope: grant.scope, userId: grant.user_id, email: grant.email };
  }
  return {
    userAccessToken,
    async sessionToken(input) {
      const accessToken =
        'accessToken' in input
          ? input.accessToken
          : (await userAccessToken({ ...input, placemaker: true })).accessToken;
      const auth = await deps.resolver.resolve(accessToken);
      const { session_token } = await sessionTokenInProcess(deps, accessToken);
      const editorUrl = new URL('/placemakers/home', publicUrl);
      editorUrl.searchParams.set('session_token', session_token);
      return {
        sessionToken: session_token,
        editorUrl: editorUrl.toString(),
        accessToken,
        userId: auth.userId!,
      };
    },
  };
}
