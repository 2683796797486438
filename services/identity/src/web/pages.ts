import { type Html, html, page } from '@cairn/kit';
import type { App } from '../apps/service.ts';

const csrfField = (token: string) => html`<input type="hidden" name="csrf_token" value="${token}">`;
const hidden = (params: Record<string, string>) =>
  Object.entries(params).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
const errorBox = (message: string | undefined) =>
  message ? html`<p class="error" role="alert" id="form-error">${message}</p>` : '';

export function navFor(person: { displayName: string } | undefined, csrf: string): Html {
  if (!person) return html``;
  return html`<nav aria-label="Account"><span>Signed in as ${person.displayName}</span>
<a href="/account/apps">Connected apps</a><a href="/console">Developer console</a>
<form method="post" action="/account/signout" style="display:inline">${csrfField(csrf)}<button class="secondary" type="submit" style="margin:0;padding:.1rem .6rem">Sign out</button></form></nav>`;
}

export function signInPage(input: {
  csrf: string;
  returnTo: string;
  email?: string;
  error?: string;
  app?: App;
}): string {
  return page(
    'Sign in',
    html`<h1>Sign in</h1>
${input.app ? html`<p><strong>${input.app.name}</strong> asks you to sign in to your Cairn account.</p>` : ''}
${errorBox(input.error)}
<form method="post" action="/account/signin">
${csrfField(input.csrf)}<input type="hidden" name="return_to" value="${input.returnTo}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}" autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p class="note">No account yet? <a href="/account/signup?return_to=${encodeURIComponent(input.returnTo)}">Create one</a>.</p>`,
  );
}

export function signUpPage(input: {
  csrf: string;
  returnTo: string;
  email?: string;
  displayName?: string;
  error?: string;
}): string {
  return page(
    'Create your account',
    html`<h1>Create your account</h1>
${errorBox(input.error)}
<form method="post" action="/account/signup">
${csrfField(input.csrf)}<input type="hidden" name="return_to" value="${input.returnTo}">
<label for="display_name">Name</label><input id="display_name" name="display_name" type="text" autocomplete="name" required maxlength="100" value="${input.displayName ?? ''}" autofocus>
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}">
<label for="password">Password (10 characters or more)</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="10">
<button type="submit">Create account</button>
</form>
<p class="note">Already have one? <a href="/account/signin?return_to=${encodeURIComponent(input.returnTo)}">Sign in</a>.</p>`,
  );
}

const PLACEMAKER_PERMISSIONS = [
  'Suggest edits to places on your behalf: new places, changed details, closures, flags and merges',
  'Vote on edits that other people suggested',
  'See your edits, their status and your accuracy',
];
const DEFAULT_PERMISSIONS = ['Use the places API as you, so that your calls and edits are attributed to you'];

export function consentPage(input: {
  csrf: string;
  app: App;
  organization: string;
  placemaker: boolean;
  params: Record<string, string>;
  person: { displayName: string; email: string };
}): string {
  const permissions = input.placemaker ? PLACEMAKER_PERMISSIONS : DEFAULT_PERMISSIONS;
  return page(
    `Connect ${input.app.name}`,
    html`<h1>Connect ${input.app.name} to your account?</h1>
<p><strong>${input.app.name}</strong> (by ${input.organization}) wants to${input.placemaker ? ' open the place editor for you and' : ''}:</p>
<ul class="permissions">${permissions.map((p) => html`<li>${p}</li>`)}</ul>
<p class="note">Signed in as ${input.person.displayName} (${input.person.email}). You can disconnect ${input.app.name} at any time under <a href="/account/apps">Connected apps</a>.</p>
<form method="post" action="/oauth2/authenticate">
${csrfField(input.csrf)}${hidden(input.params)}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  );
}

export function errorPage(title: string, message: string, extra?: Html): string {
  return page(title, html`<h1>${title}</h1><p class="error" role="alert">${message}</p>${extra ?? ''}`);
}

export function connectedAppsPage(input: {
  csrf: string;
  person: { displayName: string };
  apps: { appId: string; name: string; organization: string; since: Date }[];
  notice?: string;
}): string {
  const rows = input.apps.map(
    (a) => html`<tr><td>${a.name}</td><td>${a.organization}</td><td>${a.since.toISOString().slice(0, 10)}</td>
<td><form method="post" action="/account/apps/${a.appId}/disconnect">${csrfField(input.csrf)}<button type="submit" class="secondary" aria-label="Disconnect ${a.name}">Disconnect</button></form></td></tr>`,
  );
  return page(
    'Connected apps',
    html`<h1>Connected apps</h1>
${input.notice ? html`<p class="note" role="status">${input.notice}</p>` : ''}
${
  input.apps.length === 0
    ? html`<p>No application holds access to your account.</p>`
    : html`<p>These applications can act as you. Disconnecting one revokes its access at once.</p>
<table><thead><tr><th>Application</th><th>By</th><th>Connected</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
}`,
    { wide: true, nav: navFor(input.person, input.csrf) },
  );
}
