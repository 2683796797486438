import { useEffect, useState } from 'preact/hooks';
import { api, type HistoryEntry, type Place, type Suggestion, type Tip } from '../api.ts';
import { MapView } from '../components/map-view.tsx';
import { EditForm, FlagForm, MergeForm, RemoveForm, TipForm } from '../components/suggest-forms.tsx';

const ACTIONS: [Suggestion, string][] = [
  ['edit', 'Suggest an edit'],
  ['remove', 'Suggest removal'],
  ['flag', 'Flag a problem'],
  ['merge', 'Merge a duplicate'],
  ['tip', 'Add a tip'],
];

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** One place: its details, its history of applied edits, and the forms to suggest changes. */
export function PlacePage(props: { id: string }) {
  const [place, setPlace] = useState<Place | undefined>();
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [tips, setTips] = useState<Tip[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [action, setAction] = useState<Suggestion | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  function load() {
    api.place(props.id).then(setPlace, (e: Error) => setError(e.message));
    api.history(props.id).then(
      (h) => setHistory(h.history),
      () => setHistory([]),
    );
    api.tips(props.id).then(setTips, () => setTips([]));
  }
  useEffect(() => {
    setPlace(undefined);
    setAction(undefined);
    setNotice(undefined);
    load();
  }, [props.id]);

  if (error) {
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  }
  if (!place) return <p class="muted">Loading…</p>;
  const done = (message: string) => {
    setNotice(message);
    setAction(undefined);
    load();
  };
  return (
    <>
      <h1>{place.name}</h1>
      {notice && (
        <p class="ok" role="status">
          {notice}
        </p>
      )}
      <section class="card" aria-label="Details">
        <dl class="details">
          <dt>Address</dt>
          <dd data-field="address">{place.location?.formatted_address ?? place.location?.address ?? '—'}</dd>
          <dt>Categories</dt>
          <dd>{place.categories?.map((c) => c.name).join(', ') || '—'}</dd>
          <dt>Phone</dt>
          <dd data-field="tel">{place.tel ?? '—'}</dd>
          <dt>Website</dt>
          <dd>{place.website ? <a href={place.website}>{place.website}</a> : '—'}</dd>
          <dt>Coordinates</dt>
          <dd>
            {place.latitude?.toFixed(5)}, {place.longitude?.toFixed(5)}
          </dd>
          <dt>Id</dt>
          <dd>
            <code>{place.fsq_place_id}</code>
          </dd>
        </dl>
        <div class="actions">
          {ACTIONS.map(([kind, label]) => (
            <button
              key={kind}
              type="button"
              class={action === kind ? '' : 'secondary'}
              aria-expanded={action === kind}
              onClick={() => setAction(action === kind ? undefined : kind)}
            >
              {label}
            </button>
          ))}
        </div>
      </section>
      {action && (
        <section class="card" aria-label={ACTIONS.find(([k]) => k === action)![1]}>
          {action === 'edit' && <EditForm place={place} onDone={done} />}
          {action === 'remove' && <RemoveForm place={place} onDone={done} />}
          {action === 'flag' && <FlagForm place={place} onDone={done} />}
          {action === 'merge' && <MergeForm place={place} onDone={done} />}
          {action === 'tip' && <TipForm place={place} onDone={done} />}
        </section>
      )}
      <PlaceMap place={place} />
      <section class="card" aria-label="Tips">
        <h2>Tips</h2>
        {tips.length === 0 ? (
          <p class="muted">No tips yet.</p>
        ) : (
          <ul class="tips" data-testid="tips">
            {tips.map((t) => (
              <li key={t.fsq_tip_id} lang={t.lang}>
                {t.text} <span class="muted">· {new Date(t.created_at).toLocaleDateString()}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="card" aria-label="History">
        <h2>History</h2>
        {history.length === 0 ? (
          <p class="muted">No applied edits yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Field</th>
                <th>From</th>
                <th>To</th>
                <th>What</th>
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={h.id}>
                  <td>{new Date(h.at).toLocaleString()}</td>
                  <td>{h.field}</td>
                  <td>{show(h.from)}</td>
                  <td>{show(h.to)}</td>
                  <td>{h.action}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/** Where the place is, at street zoom, and a link to the places around it on the big map. */
function PlaceMap(props: { place: Place }) {
  const { fsq_place_id: id, name, latitude, longitude } = props.place;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  const at = `${latitude.toFixed(5)},${longitude.toFixed(5)}`;
  return (
    <section class="card place-map" aria-label="Where">
      <MapView
        key={id}
        label={`Map around ${name}`}
        view={{ latitude, longitude, zoom: 14 }}
        markers={[{ id, name, latitude, longitude }]}
        selected={id}
      />
      <p>
        <a href={`/placemakers/?at=${at},14`}>Places around it on the map</a>
      </p>
    </section>
  );
}
