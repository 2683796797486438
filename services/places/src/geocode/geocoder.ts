import type { City, Gazetteer } from '../reference/cities.ts';
import { placeKey } from './place-key.ts';
import { type GeocoderTable, readGeocoderTable } from './table.ts';

/** Longer text names no place: the route caps `near` at 200 characters, and so does the geocoder itself. */
const MAX_TEXT = 200;
/** "Name, region, country" is the longest form people write; more parts name nothing. */
const MAX_PARTS = 4;
/** How many trailing words of an input without commas may be a qualifier ("Portland OR", "Paris France"). */
const MAX_QUALIFIER_WORDS = 3;

/**
 * `near` as people type it: a city or a neighbourhood by any of its GeoNames names ("Rome", "Roma", "Рим",
 * "ローマ"), optionally qualified by its region (a US state's or Canadian province's code, a region's name) or its
 * country (ISO code, English or native name, "UK"): "Rome, GA", "Washington, DC", "London, UK",
 * "München, Deutschland", "Portland OR". Of the places a name fits, the most important wins (table.ts).
 * Towns this table leaves out (under 15,000 people) are looked up in the gazetteer, countries written as codes.
 */
export class Geocoder {
  constructor(
    private readonly table: GeocoderTable,
    private readonly gazetteer?: Gazetteer,
  ) {}

  resolve(text: string): City | undefined {
    // Control characters, lone surrogates and U+FFFD (what invalid UTF-8 decodes to) are in no place's name.
    if (text.length > MAX_TEXT || /[\p{Cc}\p{Cs}\uFFFD]/u.test(text)) return undefined;
    const parts = text.split(',').map((part) => part.trim());
    if (parts.length > MAX_PARTS || parts.some((part) => part === '')) return undefined;
    const [name, ...qualifiers] = parts.map(placeKey);
    if (name === undefined || name === '' || qualifiers.includes('')) return undefined;
    return (
      this.find(name, qualifiers) ??
      (qualifiers.length === 0 ? this.findWithTrailingQualifier(name) : undefined) ??
      this.inGazetteer(parts)
    );
  }

  /** The most important place named `name` that every qualifier fits. */
  private find(name: string, qualifiers: readonly string[]): City | undefined {
    for (const index of this.table.placesNamed(name)) {
      const place = this.table.place(index);
      if (qualifiers.every((qualifier) => this.fits(place, qualifier))) return place;
    }
    return undefined;
  }

  /** "Paris France", "Springfield IL": the last words as a qualifier, when the whole names nothing. */
  private findWithTrailingQualifier(name: string): City | undefined {
    const words = name.split(' ');
    for (let count = 1; count <= Math.min(MAX_QUALIFIER_WORDS, words.length - 1); count++) {
      const found = this.find(words.slice(0, -count).join(' '), [words.slice(-count).join(' ')]);
      if (found) return found;
    }
    return undefined;
  }

  private fits(place: City, qualifier: string): boolean {
    return (
      qualifier === place.country.toLowerCase() ||
      this.table.countries.get(qualifier) === place.country ||
      (place.region !== null && qualifier === placeKey(place.region)) ||
      (place.regionName !== null && qualifier === placeKey(place.regionName))
    );
  }

  /** The gazetteer's answer, its country qualifiers written as the codes it knows ("Tartu, Estonia" → "Tartu, EE"). */
  private inGazetteer(parts: readonly string[]): City | undefined {
    if (!this.gazetteer) return undefined;
    const [name, ...qualifiers] = parts;
    const coded = qualifiers.map((part) => this.table.countries.get(placeKey(part)) ?? part);
    return this.gazetteer.resolve([name, ...coded].join(', '));
  }
}

let table: GeocoderTable | undefined;

/** A geocoder over the table, read on first use and kept for the process. */
export function geocoder(gazetteer?: Gazetteer): Geocoder {
  table ??= readGeocoderTable();
  return new Geocoder(table, gazetteer);
}
