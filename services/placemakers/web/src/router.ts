import { useEffect, useState } from 'preact/hooks';

/** Client-side routes under /placemakers; the server serves the app for each of them. */
export type Route =
  | { name: 'map' }
  | { name: 'place'; id: string }
  | { name: 'review' }
  | { name: 'my-edits' }
  | { name: 'new' };

export function parseRoute(pathname: string): Route {
  const rest = pathname.replace(/^\/placemakers\/?/, '');
  const place = /^place\/([^/]+)$/.exec(rest);
  if (place) return { name: 'place', id: decodeURIComponent(place[1]!) };
  if (rest === 'review') return { name: 'review' };
  if (rest === 'my-edits') return { name: 'my-edits' };
  if (rest === 'new') return { name: 'new' };
  return { name: 'map' };
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case 'place':
      return `/placemakers/place/${encodeURIComponent(route.id)}`;
    case 'map':
      return '/placemakers/';
    default:
      return `/placemakers/${route.name}`;
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
