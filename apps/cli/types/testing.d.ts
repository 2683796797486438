// The types of cairn/testing, for projects that install the package (its JavaScript is bundled; these are
// written by hand and checked against the sources by apps/cli/test/testing-types.test.ts).

/** A starting state: the same fields as a fixture file (YAML, snake_case). */
export interface Fixtures {
  /** The Demo organization's service key, which the /_cairn/ controls accept. */
  service_key?: string;
  organizations?: {
    name: string;
    service_keys?: { name?: string; value: string }[];
    apps?: {
      name: string;
      client_id?: string;
      client_secret?: string;
      redirect_uris: string[];
      embed_origins?: string[];
      first_party?: boolean;
      pkce_required?: boolean;
    }[];
    managed_users?: { first_name?: string; last_name?: string }[];
  }[];
  accounts?: { email: string; display_name: string; password: string }[];
  /** People's third-party access tokens, made through the OAuth flow with the app's secret and the person's password. */
  access_tokens?: {
    /** An app of these fixtures: its client_id or its name. */
    app: string;
    /** An account of these fixtures: its email. */
    person: string;
    placemaker?: boolean;
    redirect_uri?: string;
    /** "at_" and 43 base64url characters. */
    value: string;
  }[];
  places?: {
    generate?: { seed?: string; count: number };
    /** Rows in the open places dataset's columns: fsq_place_id, name, latitude, longitude, … */
    items?: Record<string, unknown>[];
  };
  edge?: {
    zones?: {
      name: string;
      plan: 'free' | 'pro' | 'business' | 'enterprise';
      account?: string;
      origin?: string;
      settings?: Record<string, string>;
      rulesets?: Record<string, { rules: Record<string, unknown>[]; description?: string }>;
    }[];
    dashboard_users?: { account?: string; email: string; password: string }[];
  };
}

export interface StartCairnOptions {
  /** The places generator's seed. Default "1". */
  seed?: string;
  /** How many places to generate. Default 1000; 0 for none. */
  places?: number;
  /** A fixture file's path (YAML), or the fixtures as an object. reset() comes back to them. */
  fixtures?: string | Fixtures;
  /** The bootstrap service key ("svk_" + 43 base64url characters). Default: one made with the template. */
  serviceKey?: string;
  /** The servers' log level (stderr). Default "warn". */
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Where templates are kept between runs. Default CAIRN_CACHE_DIR, else <tmpdir>/cairn-templates. */
  cacheDir?: string;
}

export interface ClockState {
  now: string;
  frozen: boolean;
  offsetMs: number;
}

export interface SandboxClock {
  now(): Date;
  nowMs(): number;
  freeze(): ClockState;
  /** Forward by milliseconds or a duration: "10m", "1h30m", "90s", "2d", "500ms". */
  advance(by: number | string): ClockState;
  set(at: Date | number | string): ClockState;
  resume(): ClockState;
  reset(): ClockState;
  state(): ClockState;
  onMove(listener: () => void): void;
}

export interface FaultInput {
  /** A path pattern, "*" for any characters: "/places/*". */
  route: string;
  method?: string;
  status?: number;
  /** Seconds, with a status. */
  retryAfter?: number;
  latencyMs?: number;
  resetConnection?: boolean;
  times?: number;
  probability?: number;
}

export interface Fault extends FaultInput {
  id: string;
  remaining?: number;
  hits: number;
}

export interface JournalFilter {
  method?: string;
  path?: string;
  status?: string | number;
  since?: string | Date;
  limit?: number;
}

export interface JournalEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  attribution?: { kind: string; organizationId: string; appId?: string; userId?: number };
  durationMs: number;
  requestId: string;
  headers: Record<string, string>;
  body?: unknown;
  fault?: string;
}

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

export interface Cairn {
  /** Every API and the /_cairn/ controls. */
  url: string;
  /** The edge proxy (the zone is the Host header). */
  proxyUrl: string;
  /** The bootstrap service key (the Demo organization's). */
  serviceKey: string;
  snapshot(name: string): Promise<void>;
  restore(name: string): Promise<void>;
  reset(): Promise<void>;
  clock: SandboxClock;
  faults: { add(fault: FaultInput): Fault; list(): Fault[]; clear(): number };
  requests: { list(filter?: JournalFilter): JournalEntry[]; clear(): number };
  /** A person's access token, through the OAuth flow's own steps (PKCE, sign-in, consent, code, exchange). */
  userAccessToken(input: UserAccessTokenInput): Promise<UserAccessToken>;
  /** A 10-minute session token for the editor, from a placemaker access token or a new placemaker grant. */
  sessionToken(input: SessionTokenInput): Promise<SessionToken>;
  stop(): Promise<void>;
}

/** Starts every API and the edge proxy on free loopback ports, on an in-memory database, in sandbox mode. */
export declare function startCairn(options?: StartCairnOptions): Promise<Cairn>;
