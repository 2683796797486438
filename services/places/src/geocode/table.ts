import { readFileSync } from 'node:fs';
import type { City } from '../reference/cities.ts';
import { normalizeName } from '../reference/normalize.ts';

const TAB = 9;
const NEWLINE = 10;
const PLACE = 'P'.charCodeAt(0);
const NAME = 'N'.charCodeAt(0);
const COUNTRY = 'Q'.charCodeAt(0);

/**
 * The geocoder's table (table.tsv, built by scripts/places-geocoder-table.ts), kept as the file's bytes with
 * the offsets of its lines: about 5 MB, read in a few tens of milliseconds, and a name is found by binary search
 * on the bytes, so nothing is decoded but the lines an answer needs.
 */
export class GeocoderTable {
  private readonly places: Uint32Array;
  private readonly names: Uint32Array;
  /** Country qualifiers ("germany", "deutschland", "deu", "uk") → ISO 3166-1 alpha-2 code. */
  readonly countries = new Map<string, string>();

  constructor(private readonly data: Buffer) {
    const places: number[] = [];
    const names: number[] = [];
    for (let start = 0; start < data.length; ) {
      let end = data.indexOf(NEWLINE, start);
      if (end === -1) end = data.length;
      const kind = data[start];
      if (kind === PLACE) places.push(start);
      else if (kind === NAME) names.push(start);
      else if (kind === COUNTRY) {
        const [, key, code] = data.toString('utf8', start, end).split('\t');
        this.countries.set(key!, code!);
      }
      start = end + 1;
    }
    this.places = Uint32Array.from(places);
    this.names = Uint32Array.from(names);
  }

  /** How many places the table has, numbered from 0, most important first. */
  get placeCount(): number {
    return this.places.length;
  }

  /** The places a key names, most important first (at most 24). */
  placesNamed(key: string): number[] {
    const wanted = Buffer.from(key);
    let lo = 0;
    let hi = this.names.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const start = this.names[mid]! + 2;
      const order = wanted.compare(this.data, start, this.data.indexOf(TAB, start));
      if (order === 0) return this.placeList(start + wanted.length + 1);
      if (order > 0) lo = mid + 1;
      else hi = mid;
    }
    return [];
  }

  private placeList(start: number): number[] {
    let end = this.data.indexOf(NEWLINE, start);
    if (end === -1) end = this.data.length;
    return this.data.toString('latin1', start, end).split(',').map(Number);
  }

  /** Place number `index`, as a gazetteer city. */
  place(index: number): City {
    const start = this.places[index]!;
    let end = this.data.indexOf(NEWLINE, start);
    if (end === -1) end = this.data.length;
    const [, id, name, country, region, regionName, latitude, longitude, population, capital] = this.data
      .toString('utf8', start, end)
      .split('\t');
    return {
      id: Number(id),
      name: name!,
      key: normalizeName(name!),
      country: country!,
      region: region || null,
      regionName: regionName || region || null,
      latitude: Number(latitude),
      longitude: Number(longitude),
      population: Number(population),
      capital: capital === '1',
      municipality: null,
    };
  }
}

/** The table in table.tsv beside this module. */
export function readGeocoderTable(): GeocoderTable {
  return new GeocoderTable(readFileSync(new URL('./table.tsv', import.meta.url)));
}
