/**
 * A minimal browser for tests that speak HTTP: it keeps cookies, does not follow redirects (so tests see
 * where they point), and reads forms' hidden fields.
 */
export class FormClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keepCookies(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    path: string,
    body?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`;
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(body ? { body: new URLSearchParams(body).toString() } : {}),
    });
    this.keepCookies(response);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      location: response.headers.get('location'),
    };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body: Record<string, string>, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
}

/** The hidden inputs of the first form on a page (CSRF token, carried parameters). */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]!] ??= decodeEntities(match[2]!);
  }
  return fields;
}

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
