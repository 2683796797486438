// A small integration of Cairn's APIs, as a third-party developer writes one: a places search that waits
// and retries when it is rate-limited, and the OAuth flow that lets a person edit places (authorize, exchange
// the code server-side, fill the person's profile from userinfo, mint a 10-minute session token for the
// editor, and mint a new one when it expired).

export interface Place {
  fsq_place_id: string;
  name: string;
}

export interface PlacesClientOptions {
  baseUrl: string;
  serviceKey: string;
  /** Retries after a 429 (each waits the Retry-After it was given). Default 3. */
  maxRetries?: number;
  /** How to wait (tests may pass a faster one). Default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PlacesClient {
  constructor(private readonly options: PlacesClientOptions) {}

  async search(query: string, limit = 5): Promise<Place[]> {
    const url = new URL('/places/search', this.options.baseUrl);
    url.search = new URLSearchParams({ query, limit: String(limit) }).toString();
    const retries = this.options.maxRetries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(url, {
        headers: {
          authorization: `Bearer ${this.options.serviceKey}`,
          'x-places-api-version': '2025-06-17',
          accept: 'application/json',
        },
      });
      if (res.status === 429 && attempt < retries) {
        await res.body?.cancel();
        const seconds = Number(res.headers.get('retry-after') ?? '1');
        await (this.options.sleep ?? sleep)(Math.min(Number.isFinite(seconds) ? seconds : 1, 30) * 1000);
        continue;
      }
      if (!res.ok) throw new Error(`places search answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { results: Place[] }).results;
    }
  }
}

export interface OAuthAppOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The app's clock, for the session token's 10 minutes. Default Date.now. */
  now?: () => number;
}

const SESSION_TOKEN_MS = 10 * 60_000;

export class OAuthApp {
  private session: { token: string; mintedAt: number } | undefined;
  constructor(private readonly options: OAuthAppOptions) {}

  /** Where to send a person: sign in, allow this app to edit places, come back with a code. */
  authorizeUrl(state: string): string {
    const url = new URL('/oauth2/authenticate', this.options.baseUrl);
    url.search = new URLSearchParams({
      client_id: this.options.clientId,
      response_type: 'code',
      redirect_uri: this.options.redirectUri,
      mode: 'placemaker',
      state,
    }).toString();
    return url.toString();
  }

  /** The callback's code → the person's access token and its scope (server-side: the secret never leaves). */
  async exchange(code: string): Promise<{ accessToken: string; scope: string }> {
    const res = await fetch(new URL('/oauth2/access_token', this.options.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        redirect_uri: this.options.redirectUri,
        code,
      }),
    });
    if (!res.ok) throw new Error(`code exchange answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { access_token: string; scope: string };
    return { accessToken: body.access_token, scope: body.scope };
  }

  /** Whether the person allowed editing (the placemaker permission is in the token's scope). */
  static canEdit(scope: string): boolean {
    return scope.split(' ').includes('placemaker');
  }

  /** The person's profile after sign-in (OpenID Connect userinfo). */
  async profile(accessToken: string): Promise<{ id: string; name: string }> {
    const res = await fetch(new URL('/oauth2/userinfo', this.options.baseUrl), {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!res.ok) throw new Error(`userinfo answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { sub: string; name?: string };
    return { id: body.sub, name: body.name ?? '' };
  }

  /** The editor's address for this person; a session token lasts 10 minutes, so an old one is replaced. */
  async editorUrl(accessToken: string): Promise<string> {
    const now = (this.options.now ?? Date.now)();
    if (!this.session || now - this.session.mintedAt >= SESSION_TOKEN_MS) {
      const res = await fetch(new URL('/auth/session-token', this.options.baseUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'x-users-api-version': '2025-06-17',
          accept: 'application/json',
        },
      });
      if (!res.ok) throw new Error(`session token answered ${res.status}: ${await res.text()}`);
      this.session = {
        token: ((await res.json()) as { session_token: string }).session_token,
        mintedAt: now,
      };
    }
    return `${this.options.baseUrl}/placemakers/home?session_token=${this.session.token}`;
  }

  /** Forgets the session token (after it was used: a session token opens the editor once). */
  forgetSession(): void {
    this.session = undefined;
  }
}
