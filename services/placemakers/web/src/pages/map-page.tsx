import { useEffect, useState } from 'preact/hooks';
import { api, type Place } from '../api.ts';
import { MapView, type View } from '../components/map-view.tsx';
import { navigate } from '../router.ts';

const PARIS: View = { longitude: 2.35, latitude: 48.86, zoom: 11 };

/** Where the map opens: `?at=latitude,longitude,zoom` (a link to a place's surroundings), else Paris. */
function startView(): View {
  const at = new URLSearchParams(window.location.search).get('at')?.split(',').map(Number) ?? [];
  const [latitude, longitude, zoom] = at;
  const ok = (n: number | undefined, limit: number): n is number =>
    Number.isFinite(n) && Math.abs(n!) <= limit;
  if (!ok(latitude, 85) || !ok(longitude, 180)) return PARIS;
  return { latitude, longitude, zoom: ok(zoom, 19) && zoom >= 0 ? zoom : 13 };
}

/** Search places around the map's centre; results show as a list and as markers. */
export function MapPage() {
  const [start] = useState(startView);
  const [view, setView] = useState<View>(start);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Place[]>([]);
  const [selected, setSelected] = useState<string | undefined>();
  const [status, setStatus] = useState('');

  async function search(around: View = view) {
    setStatus('Searching…');
    try {
      const answer = await api.search({
        query,
        ll: `${around.latitude.toFixed(5)},${around.longitude.toFixed(5)}`,
        radius: String(Math.min(100_000, Math.round(40_000_000 / 2 ** around.zoom))),
        limit: '50',
      });
      setResults(answer.results);
      setStatus(`${answer.results.length} place${answer.results.length === 1 ? '' : 's'} found`);
    } catch (error) {
      setStatus((error as Error).message);
    }
  }

  useEffect(() => {
    void search(start);
  }, []);

  const markers = results
    .filter((p) => typeof p.latitude === 'number' && typeof p.longitude === 'number')
    .map((p) => ({ id: p.fsq_place_id, name: p.name, latitude: p.latitude!, longitude: p.longitude! }));

  return (
    <>
      <h1>Places</h1>
      <search>
        <form
          class="search"
          onSubmit={(e) => {
            e.preventDefault();
            void search();
          }}
        >
          <label for="q" class="visually-hidden" style="position:absolute;left:-9999px">
            Search places
          </label>
          <input
            id="q"
            type="search"
            placeholder="Search places here (name, category…)"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
          <button type="submit">Search this area</button>
        </form>
      </search>
      <p class="muted" role="status" aria-live="polite">
        {status}
      </p>
      <div class="layout">
        <MapView
          label="Map of places"
          view={start}
          onViewChange={setView}
          markers={markers}
          selected={selected}
          onSelect={(id) => navigate({ name: 'place', id })}
        />
        <ul class="results" aria-label="Search results">
          {results.map((p) => (
            <li key={p.fsq_place_id} class={p.fsq_place_id === selected ? 'selected' : ''}>
              <a
                href={`/placemakers/place/${encodeURIComponent(p.fsq_place_id)}`}
                onFocus={() => setSelected(p.fsq_place_id)}
                onMouseEnter={() => setSelected(p.fsq_place_id)}
                onClick={(e) => {
                  e.preventDefault();
                  navigate({ name: 'place', id: p.fsq_place_id });
                }}
              >
                <strong>{p.name}</strong>
                <div class="muted">
                  {[p.categories?.[0]?.name, p.location?.formatted_address ?? p.location?.address]
                    .filter(Boolean)
                    .join(' · ')}
                </div>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
