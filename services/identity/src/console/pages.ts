import { html, page } from '@cairn/kit';
import type { App } from '../apps/service.ts';
import type { ServiceKey } from '../service-keys/service.ts';
import { navFor } from '../web/pages.ts';

const csrfField = (token: string) => html`<input type="hidden" name="csrf_token" value="${token}">`;

export function consoleHome(input: {
  csrf: string;
  person: { displayName: string };
  organizations: { id: string; name: string; role: string }[];
}): string {
  return page(
    'Developer console',
    html`<h1>Developer console</h1>
${
  input.organizations.length === 0
    ? html`<p>You are not a member of any organization yet. An operator adds you with <code>cairn orgs add-member</code>.</p>`
    : html`<ul>${input.organizations.map((o) => html`<li><a href="/console/orgs/${o.id}">${o.name}</a> (${o.role})</li>`)}</ul>`
}`,
    { wide: true, nav: navFor(input.person, input.csrf) },
  );
}

export function organizationPage(input: {
  csrf: string;
  person: { displayName: string };
  organization: { id: string; name: string };
  keys: ServiceKey[];
  apps: App[];
  shown?: { title: string; lines: [string, string][] };
  error?: string;
}): string {
  const base = `/console/orgs/${input.organization.id}`;
  const keyRows = input.keys.map(
    (
      k,
    ) => html`<tr><td>${k.name}</td><td><code>${k.hint}</code></td><td>${k.createdAt.toISOString().slice(0, 10)}</td>
<td>${k.revokedAt ? html`revoked` : html`<form method="post" action="${base}/keys/${k.id}/revoke">${csrfField(input.csrf)}<button class="secondary" type="submit" aria-label="Revoke key ${k.name}">Revoke</button></form>`}</td></tr>`,
  );
  const appRows = input.apps.map(
    (
      a,
    ) => html`<tr><td>${a.name}${a.firstParty ? ' (first party)' : ''}</td><td><code>${a.clientId}</code></td>
<td>${a.redirectUris.map((u) => html`<div>${u}</div>`)}</td>
<td>${a.pkceRequired ? 'required' : 'optional'}${a.revokedAt ? '' : html`<form method="post" action="${base}/apps/${a.id}/pkce">${csrfField(input.csrf)}<input type="hidden" name="required" value="${a.pkceRequired ? 'no' : 'yes'}"><button class="secondary" type="submit" aria-label="${a.pkceRequired ? 'Stop requiring' : 'Require'} PKCE for ${a.name}">${a.pkceRequired ? 'Stop requiring' : 'Require'}</button></form>`}</td>
<td>${a.revokedAt ? html`revoked` : html`<form method="post" action="${base}/apps/${a.id}/revoke">${csrfField(input.csrf)}<button class="secondary" type="submit" aria-label="Revoke app ${a.name}">Revoke</button></form>`}</td></tr>`,
  );
  return page(
    input.organization.name,
    html`<h1>${input.organization.name}</h1>
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
${
  input.shown
    ? html`<section aria-live="polite"><h2>${input.shown.title}</h2><p>Copy it now: it will not be shown again.</p>
${input.shown.lines.map(([label, value]) => html`<p>${label}</p><p class="secret" data-secret="${label}">${value}</p>`)}</section>`
    : ''
}
<h2>Service keys</h2>
<table><thead><tr><th>Name</th><th>Key</th><th>Created</th><th></th></tr></thead><tbody>${keyRows}</tbody></table>
<form method="post" action="${base}/keys">${csrfField(input.csrf)}
<label for="key-name">New key name</label><input id="key-name" name="name" type="text" required maxlength="100">
<button type="submit">Create service key</button></form>
<h2>Applications</h2>
<table><thead><tr><th>Name</th><th>client_id</th><th>Redirect URIs</th><th>PKCE</th><th></th></tr></thead><tbody>${appRows}</tbody></table>
<form method="post" action="${base}/apps">${csrfField(input.csrf)}
<label for="app-name">Application name</label><input id="app-name" name="name" type="text" required maxlength="100">
<label for="app-redirects">Redirect URIs (one per line)</label><textarea id="app-redirects" name="redirect_uris" rows="3" required></textarea>
<label for="app-embed">Origins allowed to embed the editor (one per line, optional)</label><textarea id="app-embed" name="embed_origins" rows="2"></textarea>
<label><input type="checkbox" name="require_pkce" value="yes"> Require PKCE (S256 code_challenge) on every authorization request</label>
<button type="submit">Register application</button></form>`,
    { wide: true, nav: navFor(input.person, input.csrf) },
  );
}
