import type { Zone } from '../api.ts';
import { Link } from './link.tsx';
import { PlanBadge } from './state.tsx';

export function ZoneHeader(props: { zone: Zone; current: 'waf' | 'events' | 'configuration' }) {
  const { zone, current } = props;
  return (
    <>
      <p class="crumbs">
        <Link to={{ name: 'zones' }}>Zones</Link> / {zone.name}
      </p>
      <h1>
        {zone.name} <PlanBadge zone={zone} />
      </h1>
      <nav class="tabs" aria-label="Zone">
        <Link to={{ name: 'zone', id: zone.id }} current={current === 'waf'}>
          WAF
        </Link>
        <Link to={{ name: 'upgrade', id: zone.id }} current={current === 'configuration'}>
          Managed rules configuration
        </Link>
        <Link to={{ name: 'events', id: zone.id }} current={current === 'events'}>
          Security Events
        </Link>
      </nav>
    </>
  );
}
