import { type App, getOrganization, listOrganizationApps, registerApp, revokeApp } from '@cairn/identity';
import { type CommandSpec, optionalString, requiredString, UsageError } from '../command.ts';
import { table } from '../output.ts';

const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];

const toJson = (a: App) => ({
  id: a.id,
  organization_id: a.organizationId,
  name: a.name,
  client_id: a.clientId,
  secret_hint: a.secretHint,
  redirect_uris: a.redirectUris,
  embed_origins: a.embedOrigins,
  first_party: a.firstParty,
  pkce_required: a.pkceRequired,
  created_at: a.createdAt.toISOString(),
  revoked_at: a.revokedAt?.toISOString() ?? null,
});

export const appsCreate: CommandSpec = {
  options: {
    org: { type: 'string' },
    name: { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    'first-party': { type: 'boolean' },
    'embed-origin': { type: 'string', multiple: true },
    'require-pkce': { type: 'boolean' },
  },
  optionHelp: {
    org: 'organization id or name',
    name: 'application name shown to people on the consent page',
    'redirect-uri': 'a redirect URI, matched exactly (repeat for several)',
    'first-party': 'skip the consent page (your own application)',
    'embed-origin': 'an origin allowed to frame the editing UI and consent pages (repeat for several)',
    'require-pkce': 'refuse authorization requests without an S256 code_challenge (PKCE)',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const { identity } = await ctx.runtime();
    const org = await getOrganization(identity.deps.db, requiredString(args, 'org'));
    const redirectUris = list(args.values['redirect-uri']);
    if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required (repeat it for several)');
    const { app, clientSecret } = await registerApp(identity.deps, {
      organizationId: org.id,
      name: requiredString(args, 'name'),
      redirectUris,
      firstParty: args.values['first-party'] === true,
      embedOrigins: list(args.values['embed-origin']),
      pkceRequired: args.values['require-pkce'] === true,
    });
    if (ctx.json) ctx.out.json({ ...toJson(app), client_secret: clientSecret });
    else {
      ctx.out.line(
        `Registered "${app.name}" for "${org.name}"${app.pkceRequired ? ' (PKCE required)' : ''}. The secret is shown this once; store it now:\n\n  client_id:     ${app.clientId}\n  client_secret: ${clientSecret}\n`,
      );
    }
    return 0;
  },
};

export const appsList: CommandSpec = {
  options: { org: { type: 'string' } },
  optionHelp: { org: 'only this organization (id or name)' },
  usesDatabase: true,
  async run(args, ctx) {
    const { identity } = await ctx.runtime();
    const orgName = optionalString(args, 'org');
    const org = orgName ? await getOrganization(identity.deps.db, orgName) : undefined;
    const apps = await listOrganizationApps(identity.deps, org?.id);
    if (ctx.json) ctx.out.json(apps.map(toJson));
    else {
      ctx.out.line(
        table([
          ['ID', 'NAME', 'CLIENT_ID', 'REDIRECT URIS', 'STATUS'],
          ...apps.map((a) => [
            a.id,
            a.name,
            a.clientId,
            a.redirectUris.join(' '),
            a.revokedAt ? 'revoked' : 'active',
          ]),
        ]),
      );
    }
    return 0;
  },
};

export const appsRevoke: CommandSpec = {
  usage: '<app-id>',
  usesDatabase: true,
  async run(args, ctx) {
    const id = args.positionals[0];
    if (!id || args.positionals.length > 1)
      throw new UsageError('give exactly one app id (see: cairn apps list)');
    const { identity } = await ctx.runtime();
    await revokeApp(identity.deps, id);
    if (ctx.json) ctx.out.json({ id, revoked: true });
    else ctx.out.line(`Revoked app ${id}`);
    return 0;
  },
};
