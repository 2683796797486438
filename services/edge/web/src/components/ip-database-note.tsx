import { useEffect, useState } from 'preact/hooks';
import { api, type IpDatabase } from '../api.ts';

/**
 * The date of the IP database the country and AS rules read (ip.src.country, ip.src.asnum), with the
 * attribution its data licence asks for on pages that use it.
 */
export function IpDatabaseNote() {
  const [db, setDb] = useState<IpDatabase | undefined>();
  useEffect(() => {
    api.ipDatabase().then(setDb, () => undefined);
  }, []);
  if (!db) return null;
  return (
    <footer class="data-note" data-testid="ip-database">
      IP geolocation data of {db.date} ({db.sources.map((s) => `${s.package} ${s.version}`).join(', ')}).{' '}
      <a href="https://db-ip.com">IP Geolocation by DB-IP</a>; RIR data © NRO, RouteViews.
    </footer>
  );
}
