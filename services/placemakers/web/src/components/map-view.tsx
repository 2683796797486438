import type { FeatureCollection, Point } from 'geojson';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { MapLibreMap } from '../map/basemap.ts';

export interface Marker {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
}

export interface View {
  longitude: number;
  latitude: number;
  zoom: number;
}

/** The places' colour on the map (the editor's Chromium test looks for it). */
const MARKER = '#d9480f';

function markerData(markers: Marker[], selected: string | undefined): FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: markers.map((m) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [m.longitude, m.latitude] },
      properties: { id: m.id, name: m.name, selected: m.id === selected },
    })),
  };
}

function addPlacesLayer(map: MapLibreMap, onSelect: ((id: string) => void) | undefined) {
  map.addSource('places', { type: 'geojson', data: markerData([], undefined) });
  map.addLayer({
    id: 'places',
    type: 'circle',
    source: 'places',
    paint: {
      'circle-color': MARKER,
      'circle-radius': ['case', ['get', 'selected'], 10, 7],
      'circle-stroke-color': '#ffffff',
      'circle-stroke-width': 2,
    },
  });
  if (!onSelect) return;
  map.on('click', 'places', (e) => {
    const id = e.features?.[0]?.properties?.id;
    if (typeof id === 'string') onSelect(id);
  });
  map.on('mouseenter', 'places', () => {
    map.getCanvas().style.cursor = 'pointer';
  });
  map.on('mouseleave', 'places', () => {
    map.getCanvas().style.cursor = '';
  });
}

/**
 * The basemap (PLACES_MAP_STYLE, Cairn's own offline style by default) with the places on top as circles.
 * MapLibre GL JS loads only here, on first use. Drag or use the arrow keys to pan (the map takes focus
 * with Tab), the wheel, the buttons or +/- to zoom; a click on a place selects it. The page's list of
 * places is the keyboard's way to them. `data-idle` is "true" once the map has drawn everything it loads.
 */
export function MapView(props: {
  view: View;
  onViewChange?: (view: View) => void;
  markers: Marker[];
  selected?: string | undefined;
  onSelect?: (id: string) => void;
  label: string;
}) {
  const container = useRef<HTMLElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const [ready, setReady] = useState(false);
  const [idle, setIdle] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    let removed = false;
    (async () => {
      const [{ createMap }, config] = await Promise.all([import('../map/basemap.ts'), api.map()]);
      if (removed || !container.current) return;
      const created = await createMap(container.current, config, latest.current.view);
      if (removed) {
        created.remove();
        return;
      }
      map.current = created;
      created
        .getCanvas()
        .setAttribute('aria-label', `${latest.current.label}. Arrow keys pan, plus and minus zoom.`);
      created.on('load', () => {
        addPlacesLayer(created, (id) => latest.current.onSelect?.(id));
        setReady(true);
      });
      created.on('moveend', () => {
        const center = created.getCenter();
        latest.current.onViewChange?.({
          longitude: center.lng,
          latitude: center.lat,
          zoom: created.getZoom(),
        });
      });
      created.on('idle', () => setIdle(true));
      created.on('dataloading', () => setIdle(false));
      created.on('error', (e) => console.warn('map:', e.error?.message));
    })().catch((e: Error) =>
      setError(
        /webgl/i.test(e.message)
          ? 'The map needs WebGL, which this browser has turned off; the list of places works without it.'
          : `The map did not load: ${e.message}`,
      ),
    );
    return () => {
      removed = true;
      map.current?.remove();
      map.current = null;
    };
  }, []);

  useEffect(() => {
    if (!ready || !map.current) return;
    const source = map.current.getSource('places') as { setData(data: unknown): void } | undefined;
    source?.setData(markerData(props.markers, props.selected));
  }, [ready, props.markers, props.selected]);

  const zoomBy = (delta: number) => map.current?.zoomTo(map.current.getZoom() + delta);

  return (
    <div class="map" data-idle={String(ready && idle)}>
      <section ref={container} class="map-canvas" aria-label={props.label} />
      {error && (
        <p class="error map-error" role="alert">
          {error}
        </p>
      )}
      <fieldset class="zoom" aria-label="Zoom">
        <button type="button" onClick={() => zoomBy(1)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => zoomBy(-1)} aria-label="Zoom out">
          −
        </button>
      </fieldset>
    </div>
  );
}
