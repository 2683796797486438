import { useEffect, useState } from 'preact/hooks';
import { api, type Place } from '../api.ts';
import { type View, WorldMap } from '../components/world-map.tsx';
import { navigate } from '../router.ts';

const START: View = { longitude: 2.35, latitude: 48.86, zoom: 9 };

/** Search places around the map's centre; results show as a list and as markers. */
export function MapPage() {
  const [view, setView] = useState<View>(START);
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
    void search(START);
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
        <WorldMap
          view={view}
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
