import { geoMercator, geoPath } from 'd3-geo';
import type { FeatureCollection, Geometry } from 'geojson';
import { useMemo, useRef, useState } from 'preact/hooks';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';

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

const WIDTH = 960;
const HEIGHT = 560;
const MIN_ZOOM = 0;
const MAX_ZOOM = 16;

const topology = world as unknown as Topology<{ countries: GeometryCollection }>;
const countries = feature(topology, topology.objects.countries) as FeatureCollection<
  Geometry,
  { name: string }
>;

function projectionFor(view: View) {
  return geoMercator()
    .center([view.longitude, view.latitude])
    .scale((WIDTH / (2 * Math.PI)) * 2 ** view.zoom)
    .translate([WIDTH / 2, HEIGHT / 2]);
}

const clampLat = (lat: number) => Math.max(-80, Math.min(80, lat));
const wrapLon = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

/**
 * Country shapes from Natural Earth (world-atlas) in a Mercator projection, place markers on top. Drag or
 * use the arrow keys to pan; the wheel, the buttons or +/- to zoom; markers are buttons (Tab, Enter).
 */
export function WorldMap(props: {
  view: View;
  onViewChange: (view: View) => void;
  markers: Marker[];
  selected?: string | undefined;
  onSelect: (id: string) => void;
}) {
  const { view, onViewChange } = props;
  const projection = useMemo(() => projectionFor(view), [view]);
  const path = useMemo(() => geoPath(projection), [projection]);
  const drag = useRef<{ x: number; y: number; view: View } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const [dragging, setDragging] = useState(false);

  const toViewBox = (clientX: number, clientY: number) => {
    const rect = svg.current!.getBoundingClientRect();
    return [
      ((clientX - rect.left) / rect.width) * WIDTH,
      ((clientY - rect.top) / rect.height) * HEIGHT,
    ] as const;
  };

  const panBy = (dx: number, dy: number, from: View = view) => {
    const [lon, lat] = projectionFor(from).invert!([WIDTH / 2 - dx, HEIGHT / 2 - dy]) ?? [
      from.longitude,
      from.latitude,
    ];
    onViewChange({ ...from, longitude: wrapLon(lon), latitude: clampLat(lat) });
  };
  const zoomBy = (delta: number) =>
    onViewChange({ ...view, zoom: Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, view.zoom + delta)) });

  return (
    <div class="map">
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="application"
        aria-label="Map. Arrow keys pan, plus and minus zoom."
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the map is an interactive widget (role=application) that pans and zooms with the keyboard
        tabIndex={0}
        class={dragging ? 'dragging' : ''}
        onPointerDown={(e) => {
          if ((e.target as Element).closest('.marker')) return;
          const [x, y] = toViewBox(e.clientX, e.clientY);
          drag.current = { x, y, view };
          setDragging(true);
          (e.currentTarget as SVGSVGElement).setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          if (!drag.current) return;
          const [x, y] = toViewBox(e.clientX, e.clientY);
          panBy(x - drag.current.x, y - drag.current.y, drag.current.view);
        }}
        onPointerUp={() => {
          drag.current = null;
          setDragging(false);
        }}
        onWheel={(e) => {
          e.preventDefault();
          zoomBy(e.deltaY < 0 ? 0.5 : -0.5);
        }}
        onKeyDown={(e) => {
          const step = 60;
          const moves: Record<string, () => void> = {
            ArrowLeft: () => panBy(step, 0),
            ArrowRight: () => panBy(-step, 0),
            ArrowUp: () => panBy(0, step),
            ArrowDown: () => panBy(0, -step),
            '+': () => zoomBy(1),
            '=': () => zoomBy(1),
            '-': () => zoomBy(-1),
          };
          const move = moves[e.key];
          if (move) {
            e.preventDefault();
            move();
          }
        }}
      >
        <rect width={WIDTH} height={HEIGHT} class="sea" />
        <g class="countries">
          {countries.features.map((country) => (
            <path key={String(country.id)} d={path(country) ?? ''}>
              <title>{country.properties.name}</title>
            </path>
          ))}
        </g>
        <g class="markers">
          {props.markers.map((m) => {
            const point = projection([m.longitude, m.latitude]);
            if (!point) return null;
            const selected = m.id === props.selected;
            return (
              // biome-ignore lint/a11y/useSemanticElements: SVG has no <button>; the marker is a focusable g with role=button
              <g
                key={m.id}
                class={`marker${selected ? ' selected' : ''}`}
                transform={`translate(${point[0]},${point[1]})`}
                role="button"
                tabIndex={0}
                aria-label={m.name}
                onClick={() => props.onSelect(m.id)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    props.onSelect(m.id);
                  }
                }}
              >
                <circle r={selected ? 9 : 6} />
                <title>{m.name}</title>
              </g>
            );
          })}
        </g>
      </svg>
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
