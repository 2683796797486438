/**
 * URL patterns of page rules and URI-based WAF overrides: `*` matches any run of characters, the
 * comparison ignores case, and a pattern without a scheme matches any scheme (`example.com/admin/*` is
 * `*://example.com/admin/*`). A pattern naming only a host stands for its root path (`example.com` =
 * `example.com/`). The same reading as the upgrade's translation to `http.request.full_uri wildcard`.
 */
export type UrlMatcher = (fullUrl: string) => boolean;

const escapeRegex = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

function normalise(pattern: string): string {
  let p = pattern.trim();
  if (!/^[a-z*][a-z0-9+.*-]*:\/\//i.test(p)) p = `*://${p}`;
  const afterScheme = p.indexOf('://') + 3;
  if (p.indexOf('/', afterScheme) < 0 && !p.endsWith('*')) p = `${p}/`;
  return p;
}

/**
 * A whole-URL wildcard matcher. Case is folded by lowercasing both sides rather than with the i flag,
 * which V8's linear engine refuses: `a*b*c*` backtracks polynomially on a long URL without it.
 */
export function wildcardUrl(pattern: string): UrlMatcher {
  const source = normalise(pattern).toLowerCase().split('*').map(escapeRegex).join('.*');
  const re = new RegExp(`^${source}$`, 's');
  return (url) => re.test(url.toLowerCase());
}

/** The page-rule target operators of the reference. */
export function pageRuleTarget(operator: string, value: string): UrlMatcher {
  switch (operator) {
    case 'matches':
      return wildcardUrl(value);
    case 'equals': {
      const v = normalise(value).toLowerCase();
      return (url) => url.toLowerCase() === v || withoutScheme(url) === withoutScheme(v);
    }
    case 'not_equal': {
      const eq = pageRuleTarget('equals', value);
      return (url) => !eq(url);
    }
    case 'contains': {
      const v = value.toLowerCase();
      return (url) => url.toLowerCase().includes(v);
    }
    case 'not_contain': {
      const v = value.toLowerCase();
      return (url) => !url.toLowerCase().includes(v);
    }
    default:
      return () => false;
  }
}

const withoutScheme = (url: string) => url.slice(url.indexOf('://') + 3).toLowerCase();
