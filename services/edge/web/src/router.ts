import { useEffect, useState } from 'preact/hooks';

/** Client-side routes under /dashboard; the server serves the app for each of them. */
export type Route =
  | { name: 'zones' }
  | { name: 'zone'; id: string }
  | { name: 'upgrade'; id: string }
  | { name: 'events'; id: string };

export function parseRoute(pathname: string): Route {
  const rest = pathname.replace(/^\/dashboard\/?/, '');
  const zone = /^zones\/([0-9a-f]{32})(?:\/(waf\/configuration|security\/events))?$/.exec(rest);
  if (zone) {
    const id = zone[1]!;
    if (zone[2] === 'waf/configuration') return { name: 'upgrade', id };
    if (zone[2] === 'security/events') return { name: 'events', id };
    return { name: 'zone', id };
  }
  return { name: 'zones' };
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case 'zones':
      return '/dashboard/';
    case 'zone':
      return `/dashboard/zones/${route.id}`;
    case 'upgrade':
      return `/dashboard/zones/${route.id}/waf/configuration`;
    case 'events':
      return `/dashboard/zones/${route.id}/security/events`;
  }
}

export function navigate(route: Route) {
  window.history.pushState(null, '', hrefOf(route));
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.pathname));
  useEffect(() => {
    const onPop = () => setRoute(parseRoute(window.location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return route;
}
