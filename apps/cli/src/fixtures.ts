// Fixtures: a declarative starting state in YAML (cairn fixtures load, startCairn's `fixtures`). The whole file
// is checked first — its shape against a schema, then every value the services would refuse — and each
// problem is reported with the file, line and field; only a file with none is applied, in one transaction,
// through the services' own functions.
import { readFileSync } from 'node:fs';
import {
  createDashboardUser,
  createZone,
  ensureAccount,
  findSetting,
  PLAN_NAMES,
  putEntrypoint,
  SUPPORTED_PHASES,
  writeSetting,
} from '@cairn/edge';
import {
  bootstrapDemo,
  createManagedUser,
  createOrganization,
  createServiceKey,
  grantInProcess,
  type IdentityDeps,
  listOrganizations,
  registerApp,
  signUp,
} from '@cairn/identity';
import { CairnError, tokenKindOf, transactionAsDb } from '@cairn/kit';
import {
  BadRow,
  ensureReferenceData,
  generatePlaces,
  loadReference,
  namesOf,
  type RowValue,
  toPlaceRecord,
  writePlaces,
} from '@cairn/places';
import Type, { type Static } from 'typebox';
import { Value } from 'typebox/value';
import { type Document, isMap, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { Runtime } from './runtime.ts';

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Password = Type.String({ minLength: 1, maxLength: 1000 });

const ServiceKey = Type.Object(
  { name: Type.Optional(Name), value: Type.String({ description: 'svk_ and 43 base64url characters' }) },
  { additionalProperties: false },
);
const App = Type.Object(
  {
    name: Name,
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
    redirect_uris: Type.Array(Type.String(), { minItems: 1, maxItems: 20 }),
    embed_origins: Type.Optional(Type.Array(Type.String(), { maxItems: 20 })),
    first_party: Type.Optional(Type.Boolean()),
    pkce_required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const ManagedUser = Type.Object(
  {
    first_name: Type.Optional(Type.String({ maxLength: 100 })),
    last_name: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
const Organization = Type.Object(
  {
    name: Name,
    service_keys: Type.Optional(Type.Array(ServiceKey, { maxItems: 100 })),
    apps: Type.Optional(Type.Array(App, { maxItems: 100 })),
    managed_users: Type.Optional(Type.Array(ManagedUser, { maxItems: 10_000 })),
  },
  { additionalProperties: false },
);
const Account = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), display_name: Name, password: Password },
  { additionalProperties: false },
);
/** A person's third-party access token, made through the OAuth flow (the app's secret, the person's password). */
const AccessToken = Type.Object(
  {
    /** An app of these fixtures: its client_id or its name. */
    app: Type.String({ minLength: 1, maxLength: 100 }),
    /** An account of these fixtures: its email. */
    person: Type.String({ minLength: 3, maxLength: 254 }),
    placemaker: Type.Optional(Type.Boolean()),
    redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
    value: Type.String({ description: 'at_ and 43 base64url characters' }),
  },
  { additionalProperties: false },
);
const Place = Type.Record(Type.String(), Type.Unknown());
const Places = Type.Object(
  {
    generate: Type.Optional(
      Type.Object(
        {
          seed: Type.Optional(Type.String({ maxLength: 100 })),
          count: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
        },
        { additionalProperties: false },
      ),
    ),
    items: Type.Optional(Type.Array(Place, { maxItems: 100_000 })),
  },
  { additionalProperties: false },
);
const Rule = Type.Record(Type.String(), Type.Unknown());
/** The plans as a tuple of literals, so the static type names each (PLAN_NAMES is the list). */
type PlanLiterals = [
  ReturnType<typeof Type.Literal<'free'>>,
  ReturnType<typeof Type.Literal<'pro'>>,
  ReturnType<typeof Type.Literal<'business'>>,
  ReturnType<typeof Type.Literal<'enterprise'>>,
];
const Zone = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 253 }),
    plan: Type.Union(PLAN_NAMES.map((p) => Type.Literal(p)) as PlanLiterals),
    account: Type.Optional(Name),
    origin: Type.Optional(Type.String()),
    /** Zone settings: waf (the previous WAF managed rules, on/off; Pro and above), security_level. */
    settings: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** Entry point rulesets by phase: { http_request_firewall_custom: { rules: [...] } }. */
    rulesets: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object(
          { rules: Type.Array(Rule, { maxItems: 1000 }), description: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
const DashboardUser = Type.Object(
  { account: Type.Optional(Name), email: Type.String({ minLength: 3, maxLength: 254 }), password: Password },
  { additionalProperties: false },
);
const FixtureSchema = Type.Object(
  {
    /** The Demo organization's service key (startCairn's bootstrap key). */
    service_key: Type.Optional(Type.String()),
    organizations: Type.Optional(Type.Array(Organization, { maxItems: 1000 })),
    accounts: Type.Optional(Type.Array(Account, { maxItems: 10_000 })),
    access_tokens: Type.Optional(Type.Array(AccessToken, { maxItems: 1000 })),
    places: Type.Optional(Places),
    edge: Type.Optional(
      Type.Object(
        {
          zones: Type.Optional(Type.Array(Zone, { maxItems: 1000 })),
          dashboard_users: Type.Optional(Type.Array(DashboardUser, { maxItems: 1000 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** A fixture file's content (snake_case keys, as in the YAML). */
export type Fixtures = Static<typeof FixtureSchema>;

/** One problem of a fixture file: where (file, line, field) and what. */
export interface FixtureProblem {
  file: string;
  line: number;
  field: string;
  message: string;
}

/** A fixture file was refused whole; `problems` lists each one, with its place. */
export class FixtureError extends CairnError {
  constructor(readonly problems: FixtureProblem[]) {
    super(
      400,
      'invalid_fixtures',
      `the fixtures were refused, nothing was applied:\n${problems
        .map((p) => `  ${p.file}:${p.line}: ${p.field || '(top)'}: ${p.message}`)
        .join('\n')}`,
    );
    this.name = 'FixtureError';
  }
}

type Path = (string | number)[];

/** Where each field of a parsed YAML file is, for messages; a plain object has no lines (line 0). */
interface Source {
  file: string;
  lineOf(path: Path): number;
}

function fieldName(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function yamlSource(file: string, doc: Document, lines: LineCounter): Source {
  return {
    file,
    lineOf(path) {
      // The deepest node that exists on the path (a missing field: its parent).
      for (let n = path.length; n >= 0; n--) {
        const node = doc.getIn(path.slice(0, n), true) as Node | undefined;
        if (node?.range) return lines.linePos(node.range[0]).line;
        if (n === 0 && doc.contents?.range) return lines.linePos(doc.contents.range[0]).line;
      }
      return 1;
    },
  };
}

function pointerPath(pointer: string): Path {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function schemaProblems(value: unknown, source: Source): FixtureProblem[] {
  const problems: FixtureProblem[] = [];
  for (const error of Value.Errors(FixtureSchema, value)) {
    const path = pointerPath(error.instancePath);
    let message = error.message;
    if (error.keyword === 'additionalProperties') continue; // each extra field is its own "boolean" error
    if (error.keyword === 'boolean') message = 'is not a field here';
    const required = (error.params as { requiredProperties?: string[] }).requiredProperties;
    if (error.keyword === 'required' && required) {
      for (const name of required)
        problems.push({
          file: source.file,
          line: source.lineOf(path),
          field: fieldName([...path, name]),
          message: 'is required',
        });
      continue;
    }
    problems.push({ file: source.file, line: source.lineOf(path), field: fieldName(path), message });
  }
  return problems;
}

/** The checks the schema cannot express, done before anything is written (the services repeat them). */
function valueProblems(f: Fixtures, source: Source): FixtureProblem[] {
  const problems: FixtureProblem[] = [];
  const at = (path: Path, message: string) =>
    problems.push({ file: source.file, line: source.lineOf(path), field: fieldName(path), message });
  const keys = new Set<string>();
  const key = (value: string, path: Path) => {
    if (tokenKindOf(value) !== 'serviceKey') at(path, 'must be "svk_" followed by 43 base64url characters');
    else if (keys.has(value)) at(path, 'is given twice');
    keys.add(value);
  };
  if (f.service_key !== undefined) key(f.service_key, ['service_key']);
  const orgNames = new Set<string>();
  const clientIds = new Set<string>();
  (f.organizations ?? []).forEach((org, i) => {
    if (orgNames.has(org.name))
      at(['organizations', i, 'name'], `the organization "${org.name}" is given twice`);
    orgNames.add(org.name);
    for (const [j, k] of (org.service_keys ?? []).entries())
      key(k.value, ['organizations', i, 'service_keys', j, 'value']);
    (org.apps ?? []).forEach((app, j) => {
      if (app.client_id !== undefined) {
        if (!/^[A-Z0-9]{48}$/.test(app.client_id))
          at(['organizations', i, 'apps', j, 'client_id'], 'must be 48 upper-case letters and digits');
        else if (clientIds.has(app.client_id))
          at(['organizations', i, 'apps', j, 'client_id'], 'is given twice');
        clientIds.add(app.client_id);
      }
      if (app.client_secret !== undefined && tokenKindOf(app.client_secret) !== 'clientSecret')
        at(
          ['organizations', i, 'apps', j, 'client_secret'],
          'must be "cs_" followed by 43 base64url characters',
        );
    });
    if ((org.managed_users ?? []).length > 0 && (org.service_keys ?? []).length === 0)
      at(
        ['organizations', i, 'managed_users'],
        'managed users are created with a service key: give the organization one in service_keys',
      );
  });
  const emails = new Set<string>();
  (f.accounts ?? []).forEach((a, i) => {
    const email = a.email.trim().toLowerCase();
    if (emails.has(email)) at(['accounts', i, 'email'], `"${a.email}" is given twice`);
    emails.add(email);
  });
  const appNames = new Map<string, number>();
  for (const org of f.organizations ?? [])
    for (const app of org.apps ?? []) appNames.set(app.name, (appNames.get(app.name) ?? 0) + 1);
  const tokens = new Set<string>();
  (f.access_tokens ?? []).forEach((t, i) => {
    if (tokenKindOf(t.value) !== 'accessToken')
      at(['access_tokens', i, 'value'], 'must be "at_" followed by 43 base64url characters');
    else if (tokens.has(t.value)) at(['access_tokens', i, 'value'], 'is given twice');
    tokens.add(t.value);
    if (!clientIds.has(t.app) && appNames.get(t.app) !== 1)
      at(
        ['access_tokens', i, 'app'],
        appNames.has(t.app)
          ? `more than one app is named "${t.app}": name it by its client_id`
          : 'must be the client_id or the name of an app in these fixtures',
      );
    if (!emails.has(t.person.trim().toLowerCase()))
      at(['access_tokens', i, 'person'], 'must be the email of an account in these fixtures');
  });
  (f.places?.items ?? []).forEach((item, i) => {
    try {
      toPlaceRecord(item as Record<string, RowValue>);
    } catch (error) {
      if (!(error instanceof BadRow)) throw error;
      at(['places', 'items', i], error.message);
    }
  });
  const zones = new Set<string>();
  (f.edge?.zones ?? []).forEach((zone, i) => {
    const name = zone.name.toLowerCase();
    if (zones.has(name)) at(['edge', 'zones', i, 'name'], `the zone "${zone.name}" is given twice`);
    zones.add(name);
    for (const [id, value] of Object.entries(zone.settings ?? {})) {
      const def = findSetting(id);
      if (!def)
        at(['edge', 'zones', i, 'settings', id], 'is not a zone setting Cairn keeps (waf, security_level)');
      else if (!def.values.includes(value))
        at(['edge', 'zones', i, 'settings', id], `must be one of ${def.values.join(', ')}`);
    }
    for (const phase of Object.keys(zone.rulesets ?? {})) {
      if (!(SUPPORTED_PHASES as readonly string[]).includes(phase))
        at(
          ['edge', 'zones', i, 'rulesets', phase],
          `is not a supported phase (${SUPPORTED_PHASES.join(', ')})`,
        );
    }
  });
  return problems;
}

/** Parses and checks fixture text; throws a FixtureError listing every problem. */
export function parseFixtures(text: string, file: string): Fixtures {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new FixtureError(
      doc.errors.map((e) => ({
        file,
        line: e.linePos?.[0]?.line ?? 1,
        field: '',
        message: `not YAML: ${e.message.split('\n')[0]}`,
      })),
    );
  }
  if (doc.contents !== null && !isMap(doc.contents) && !isSeq(doc.contents)) {
    // A scalar document: reported by the schema ("must be object").
  }
  const value = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as unknown;
  return checkFixtures(value, yamlSource(file, doc, lines));
}

/** Reads and checks a fixture file (YAML). */
export function readFixtures(path: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new FixtureError([
      { file: path, line: 0, field: '', message: `cannot read it: ${(error as Error).message}` },
    ]);
  }
  return parseFixtures(text, path);
}

/** Where each checked fixture came from, for the lines of a refusal while applying. */
const sources = new WeakMap<object, Source>();

/** Checks fixtures given as an object (startCairn's `fixtures`); fields are named, there are no lines. */
export function checkFixtures(
  value: unknown,
  source: Source = { file: '<fixtures>', lineOf: () => 0 },
): Fixtures {
  const shape = schemaProblems(value, source);
  if (shape.length > 0) throw new FixtureError(shape);
  const fixtures = value as Fixtures;
  const values = valueProblems(fixtures, source);
  if (values.length > 0) throw new FixtureError(values);
  sources.set(fixtures, source);
  return fixtures;
}

/** Each access_tokens entry through the OAuth flow, with the secret and password the fixtures gave. */
async function applyAccessTokens(
  identity: IdentityDeps,
  fixtures: Fixtures,
  apps: Map<string, { clientId: string; clientSecret: string }>,
  at: (field: Path) => void,
): Promise<number> {
  const passwords = new Map((fixtures.accounts ?? []).map((a) => [a.email.trim().toLowerCase(), a]));
  for (const [i, token] of (fixtures.access_tokens ?? []).entries()) {
    at(['access_tokens', i]);
    const account = passwords.get(token.person.trim().toLowerCase())!;
    await grantInProcess(identity, {
      app: {
        ...apps.get(token.app)!,
        ...(token.redirect_uri !== undefined ? { redirectUri: token.redirect_uri } : {}),
      },
      person: { email: account.email, password: account.password },
      placemaker: token.placemaker ?? false,
      accessToken: token.value,
    });
  }
  return (fixtures.access_tokens ?? []).length;
}

/** What apply() made, for the command's summary. */
export interface FixtureSummary {
  organizations: number;
  serviceKeys: number;
  apps: number;
  managedUsers: number;
  accounts: number;
  accessTokens: number;
  places: number;
  zones: number;
  dashboardUsers: number;
}

/**
 * Applies checked fixtures in one transaction, through the services' functions; a refusal by a service
 * (a name taken, an app's bad redirect URI, a ruleset's expression) rolls everything back and is reported
 * with the field it came from.
 */
export async function applyFixtures(
  runtime: Pick<Runtime, 'deps' | 'identity' | 'edge'>,
  fixtures: Fixtures,
): Promise<FixtureSummary> {
  const source = sources.get(fixtures) ?? { file: '<fixtures>', lineOf: () => 0 };
  const summary: FixtureSummary = {
    organizations: 0,
    serviceKeys: 0,
    apps: 0,
    managedUsers: 0,
    accounts: 0,
    accessTokens: 0,
    places: 0,
    zones: 0,
    dashboardUsers: 0,
  };
  const { db, clock } = runtime.deps;
  if ((fixtures.places?.items ?? []).length > 0 || fixtures.places?.generate) await ensureReferenceData(db);
  let field: Path = [];
  // The fixtures' apps by client_id and by name, with their secrets (for access_tokens).
  const apps = new Map<string, { clientId: string; clientSecret: string }>();
  try {
    await db.transaction(async (tx) => {
      const txDb = transactionAsDb(tx, db.engine);
      const identity = { ...runtime.identity.deps, db: txDb };
      const edge = { ...runtime.edge.deps, db: txDb };
      if (fixtures.service_key) {
        field = ['service_key'];
        await bootstrapDemo(identity, fixtures.service_key);
      }
      for (const [i, org] of (fixtures.organizations ?? []).entries()) {
        field = ['organizations', i, 'name'];
        const organization =
          (await listOrganizations(txDb)).find((o) => o.name === org.name) ??
          (await createOrganization(identity, org.name));
        summary.organizations++;
        let firstKey: { id: string } | undefined;
        for (const [j, k] of (org.service_keys ?? []).entries()) {
          field = ['organizations', i, 'service_keys', j];
          const made = await createServiceKey(identity, {
            organizationId: organization.id,
            secret: k.value,
            ...(k.name ? { name: k.name } : {}),
          });
          firstKey ??= made.key;
          summary.serviceKeys++;
        }
        for (const [j, app] of (org.apps ?? []).entries()) {
          field = ['organizations', i, 'apps', j];
          const registered = await registerApp(identity, {
            organizationId: organization.id,
            name: app.name,
            redirectUris: app.redirect_uris,
            ...(app.embed_origins ? { embedOrigins: app.embed_origins } : {}),
            ...(app.first_party !== undefined ? { firstParty: app.first_party } : {}),
            ...(app.pkce_required !== undefined ? { pkceRequired: app.pkce_required } : {}),
            ...(app.client_id ? { clientId: app.client_id } : {}),
            ...(app.client_secret ? { clientSecret: app.client_secret } : {}),
          });
          const credentials = {
            clientId: registered.app.clientId,
            clientSecret: registered.clientSecret,
          };
          apps.set(registered.app.clientId, credentials).set(app.name, credentials);
          summary.apps++;
        }
        for (const [j, user] of (org.managed_users ?? []).entries()) {
          field = ['organizations', i, 'managed_users', j];
          await createManagedUser(
            identity,
            { kind: 'service_key', organizationId: organization.id, credentialId: firstKey!.id },
            { firstName: user.first_name ?? null, lastName: user.last_name ?? null },
          );
          summary.managedUsers++;
        }
      }
      for (const [i, account] of (fixtures.accounts ?? []).entries()) {
        field = ['accounts', i];
        await signUp(identity, {
          email: account.email,
          displayName: account.display_name,
          password: account.password,
        });
        summary.accounts++;
      }
      summary.accessTokens += await applyAccessTokens(identity, fixtures, apps, (path) => {
        field = path;
      });
      if (fixtures.places?.generate) {
        field = ['places', 'generate'];
        const { seed = '1', count } = fixtures.places.generate;
        summary.places += (await generatePlaces(txDb, { count, seed })).written;
      }
      if (fixtures.places?.items?.length) {
        field = ['places', 'items'];
        const records = fixtures.places.items.map((item) => toPlaceRecord(item as Record<string, RowValue>));
        await writePlaces(tx, records, namesOf(await loadReference(txDb)));
        summary.places += records.length;
      }
      for (const [i, zone] of (fixtures.edge?.zones ?? []).entries()) {
        field = ['edge', 'zones', i];
        const account = await ensureAccount(edge, zone.account);
        const made = await createZone(edge, {
          accountId: account.id,
          name: zone.name,
          plan: zone.plan,
          ...(zone.origin ? { origin: zone.origin } : {}),
        });
        for (const [id, value] of Object.entries(zone.settings ?? {})) {
          field = ['edge', 'zones', i, 'settings', id];
          await writeSetting(tx, made.id, made.plan, findSetting(id)!, value, clock.now());
        }
        for (const [phase, ruleset] of Object.entries(zone.rulesets ?? {})) {
          field = ['edge', 'zones', i, 'rulesets', phase];
          await putEntrypoint(edge, made, phase, {
            rules: ruleset.rules as never,
            ...(ruleset.description !== undefined ? { description: ruleset.description } : {}),
          });
        }
        summary.zones++;
      }
      for (const [i, user] of (fixtures.edge?.dashboard_users ?? []).entries()) {
        field = ['edge', 'dashboard_users', i];
        const account = await ensureAccount(edge, user.account);
        await createDashboardUser(edge, {
          accountId: account.id,
          email: user.email,
          password: user.password,
        });
        summary.dashboardUsers++;
      }
    });
  } catch (error) {
    if (error instanceof FixtureError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new FixtureError([
      { file: source.file, line: source.lineOf(field), field: fieldName(field), message },
    ]);
  }
  return summary;
}
