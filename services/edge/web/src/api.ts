/**
 * The dashboard's one API client. Sign-in goes to /dashboard/api/session; everything else is the API v4
 * (/client/v4), authenticated by the session cookie plus the session's CSRF value in X-Cairn-Dashboard.
 */
export interface ApiMessage {
  code: number;
  message: string;
  source?: { pointer?: string; parameter?: string };
}

export interface Envelope<T> {
  result: T;
  success: boolean;
  errors: ApiMessage[];
  messages: ApiMessage[];
  result_info?: { page: number; per_page: number; count: number; total_count: number };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiMessage[],
  ) {
    super(errors.map((e) => e.message).join('; ') || `HTTP ${status}`);
  }
}

export interface Session {
  actor: { type: 'user' | 'api_token'; id: string | null; name: string };
  account: { id: string; name: string };
  permissions: { zone: string; permission: string }[];
  csrf: string;
  expires_on: string;
}

export type Plan = 'free' | 'pro' | 'business' | 'enterprise';
export type MigrationState = 'default' | 'start' | 'validation' | 'complete';

export interface Zone {
  id: string;
  name: string;
  status: string;
  paused: boolean;
  plan: { id: string; name: string; legacy_id: Plan };
  account: { id: string; name: string };
}

export interface Check {
  compatible: boolean;
  migration_state: MigrationState;
}

export interface Status {
  old_waf_status: 'enabled' | 'disabled';
  new_waf_status: 'enabled' | 'disabled';
  migration_state: MigrationState;
  modified_on: string;
}

export interface RuleOverride {
  id: string;
  enabled?: boolean;
  action?: string;
  score_threshold?: number;
}

export interface CategoryOverride {
  category: string;
  enabled?: boolean;
  action?: string;
}

export interface Rule {
  id?: string;
  version?: string;
  ref?: string;
  action: string;
  expression: string;
  description?: string;
  enabled?: boolean;
  logging?: { enabled: boolean };
  action_parameters?: {
    id?: string;
    ruleset?: string;
    overrides?: {
      enabled?: boolean;
      action?: string;
      categories?: CategoryOverride[];
      rules?: RuleOverride[];
    };
    [name: string]: unknown;
  };
}

export interface Configuration {
  name: string;
  description?: string;
  rules: Rule[];
}

export interface Ruleset extends Configuration {
  id: string;
  version: string;
  phase: string;
}

export interface ManagedRule {
  id: string;
  description?: string;
  action?: string;
  enabled?: boolean;
  categories?: string[];
}

export interface ManagedRuleset {
  id: string;
  name: string;
  rules: ManagedRule[];
}

export interface HistoryEvent {
  seq: number;
  from: MigrationState;
  to: MigrationState;
  cause: string;
  actor: { type: string; id: string | null; name: string };
  at: string;
}

export interface SecurityEvent {
  ray_id: string;
  action: string;
  source: string;
  waf: 'new' | 'previous' | null;
  rule_id: string;
  rule_message: string;
  ip: string;
  method: string;
  path: string;
  query: string;
  occurred_at: string;
}

/** What /readyz says of the edge's IP database (services/edge/src/geo). */
export interface IpDatabase {
  date: string;
  sources: { package: string; version: string; license: string; date: string }[];
}

let csrf = '';

async function send<T>(method: string, url: string, body?: unknown): Promise<Envelope<T>> {
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      'x-cairn-dashboard': csrf,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  if (!response.ok || !envelope || envelope.success === false) {
    throw new ApiError(response.status, envelope?.errors ?? []);
  }
  return envelope;
}

/** A GraphQL Analytics API query (/client/v4/graphql) with the session; GraphQL errors are thrown. */
async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch('/client/v4/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'content-type': 'application/json', 'x-cairn-dashboard': csrf },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await response.json().catch(() => ({}))) as { data?: T; errors?: { message: string }[] };
  if (answer.errors?.length || !answer.data) {
    throw new ApiError(
      response.status,
      (answer.errors ?? []).map((e) => ({ code: 0, message: e.message })),
    );
  }
  return answer.data;
}

const v4 = <T>(method: string, path: string, body?: unknown) => send<T>(method, `/client/v4${path}`, body);
const ENTRYPOINT = 'rulesets/phases/http_request_firewall_managed/entrypoint';

export const api = {
  graphql,
  /** The IP geolocation database's date, from /readyz (undefined when it does not say). */
  async ipDatabase(): Promise<IpDatabase | undefined> {
    const response = await fetch('/readyz', { headers: { accept: 'application/json' } });
    const body = (await response.json().catch(() => ({}))) as { edge?: { ip_database?: IpDatabase } };
    return body.edge?.ip_database;
  },
  async session(): Promise<Session | undefined> {
    try {
      const s = (await send<Session>('GET', '/dashboard/api/session')).result;
      csrf = s.csrf;
      return s;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return undefined;
      throw error;
    }
  },
  async signIn(credentials: { api_token: string } | { email: string; password: string }): Promise<Session> {
    const s = (await send<Session>('POST', '/dashboard/api/session', credentials)).result;
    csrf = s.csrf;
    return s;
  },
  async signOut(): Promise<void> {
    await send('DELETE', '/dashboard/api/session');
    csrf = '';
  },
  zones: () => v4<Zone[]>('GET', '/zones?per_page=50'),
  zone: (id: string) => v4<Zone>('GET', `/zones/${id}`),
  check: (id: string) => v4<Check>('GET', `/zones/${id}/waf_migration/check?phase_two=1`),
  config: (id: string) => v4<Configuration>('GET', `/zones/${id}/waf_migration/config?phase_two=1`),
  status: (id: string) => v4<Status>('GET', `/zones/${id}/waf_migration/status`),
  history: (id: string) => v4<HistoryEvent[]>('GET', `/zones/${id}/waf_migration/history`),
  entrypoint: (id: string) => v4<Ruleset>('GET', `/zones/${id}/${ENTRYPOINT}`),
  /** The WAF upgrade: `validation` (Enterprise) or `pending` (finishes it). */
  upgrade: (id: string, mode: 'pending' | 'validation', config: Configuration) =>
    v4<Ruleset>('PUT', `/zones/${id}/${ENTRYPOINT}?waf_migration=${mode}&phase_two=1`, config),
  /** After the upgrade the entry point is changed with the plain Rulesets API. */
  saveEntrypoint: (id: string, config: Configuration) =>
    v4<Ruleset>('PUT', `/zones/${id}/${ENTRYPOINT}`, config),
  managedRuleset: (accountId: string, rulesetId: string) =>
    v4<ManagedRuleset>('GET', `/accounts/${accountId}/rulesets/${rulesetId}`),
  events: (id: string, action?: string) =>
    v4<SecurityEvent[]>(
      'GET',
      `/zones/${id}/security/events?per_page=50${action ? `&action=${encodeURIComponent(action)}` : ''}`,
    ),
};
