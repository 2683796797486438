import { useEffect, useState } from 'preact/hooks';
import { api, type Status, type Zone } from '../api.ts';
import { Link } from '../components/link.tsx';
import { ErrorText, Loading, PlanBadge, STATE_LABELS } from '../components/state.tsx';

export function ZonesPage() {
  const [zones, setZones] = useState<{ zone: Zone; status: Status | undefined }[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    (async () => {
      const list = (await api.zones()).result;
      // A token may see a zone without waf:read; the list still shows the zone.
      const statuses = await Promise.all(
        list.map((z) =>
          api.status(z.id).then(
            (s) => s.result,
            () => undefined,
          ),
        ),
      );
      setZones(list.map((zone, i) => ({ zone, status: statuses[i] })));
    })().catch((e: Error) => setError(e.message));
  }, []);

  return (
    <>
      <h1>Zones</h1>
      <ErrorText error={error} />
      {!zones && !error && <Loading />}
      {zones && zones.length === 0 && (
        <p>No zones yet. Add one with: cairn edge zones create --name example.com</p>
      )}
      {zones && zones.length > 0 && (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Zone</th>
              <th scope="col">Plan</th>
              <th scope="col">WAF</th>
            </tr>
          </thead>
          <tbody>
            {zones.map(({ zone, status }) => (
              <tr key={zone.id}>
                <td>
                  <Link to={{ name: 'zone', id: zone.id }}>{zone.name}</Link>
                </td>
                <td>
                  <PlanBadge zone={zone} />
                </td>
                <td>{status ? STATE_LABELS[status.migration_state] : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
