/**
 * The earthdistance extension's model: a sphere of radius earth() = 6378168 m, points as 3-D cubes. We compute
 * a place's point here rather than with ll_to_earth() per row: the earth domain's checks cost ~25 µs a row on
 * PGlite. Search converts between great-circle distance and the chord that cube's `<->` measures.
 */
export const EARTH_RADIUS_M = 6378168;

export function earthPoint(latitude: number, longitude: number): [number, number, number] {
  const lat = (latitude * Math.PI) / 180;
  const lon = (longitude * Math.PI) / 180;
  return [
    EARTH_RADIUS_M * Math.cos(lat) * Math.cos(lon),
    EARTH_RADIUS_M * Math.cos(lat) * Math.sin(lon),
    EARTH_RADIUS_M * Math.sin(lat),
  ];
}

/** The cube literal of a point, "(x, y, z)". */
export function cubeLiteral(latitude: number, longitude: number): string {
  const [x, y, z] = earthPoint(latitude, longitude);
  return `(${x}, ${y}, ${z})`;
}

/** Straight-line (chord) length for a great-circle distance in metres. */
export function chordFor(arcMetres: number): number {
  const angle = Math.min(Math.PI, arcMetres / EARTH_RADIUS_M);
  return 2 * EARTH_RADIUS_M * Math.sin(angle / 2);
}

/** Great-circle distance in metres for a chord length. */
export function arcFor(chordMetres: number): number {
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, chordMetres / (2 * EARTH_RADIUS_M)));
}

/** Great-circle distance between two points in metres, on the same sphere. */
export function greatCircle(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const [x1, y1, z1] = earthPoint(lat1, lon1);
  const [x2, y2, z2] = earthPoint(lat2, lon2);
  return arcFor(Math.hypot(x1 - x2, y1 - y2, z1 - z2));
}
