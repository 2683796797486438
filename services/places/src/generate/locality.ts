import type { City } from '../reference/cities.ts';

/**
 * The town a generated point lies in: of the gazetteer's towns near it, the one whose built-up area reaches
 * it best — its distance divided by the town's radius (~1.2 km plus 4 km per square root of a million
 * people: Rome's 12 km, Vatican City's 1.2 km). So a place 3 km from St Peter's is in Rome, not in Vatican
 * City, and one 20 km out of a metropolis is in the suburb it lies in. Towns are found through a grid of
 * 0.25° cells.
 */
const CELL = 0.25;

export const townRadiusKm = (population: number): number =>
  Math.min(14, 1.2 + 4 * Math.sqrt(population / 1e6));

export class Localities {
  private readonly cells = new Map<string, City[]>();

  constructor(cities: readonly City[]) {
    for (const city of cities) {
      if (city.population < 1000) continue;
      const key = this.key(Math.floor(city.latitude / CELL), Math.floor(city.longitude / CELL));
      const list = this.cells.get(key);
      if (list) list.push(city);
      else this.cells.set(key, [city]);
    }
  }

  private key(row: number, column: number): string {
    return `${row}:${column}`;
  }

  /** The town whose area reaches the point best; `fallback` (the town it was drawn around) when none is near. */
  townAt(latitude: number, longitude: number, fallback: City): City {
    const row = Math.floor(latitude / CELL);
    const column = Math.floor(longitude / CELL);
    const cosLat = Math.max(0.05, Math.cos((latitude * Math.PI) / 180));
    let best = fallback;
    let bestScore = this.score(fallback, latitude, longitude, cosLat);
    for (let r = row - 1; r <= row + 1; r++) {
      for (let c = column - 1; c <= column + 1; c++) {
        for (const city of this.cells.get(this.key(r, c)) ?? []) {
          const score = this.score(city, latitude, longitude, cosLat);
          if (score < bestScore) {
            best = city;
            bestScore = score;
          }
        }
      }
    }
    return best;
  }

  private score(city: City, latitude: number, longitude: number, cosLat: number): number {
    const dy = (latitude - city.latitude) * 111.2;
    const dx = (longitude - city.longitude) * 111.2 * cosLat;
    return Math.sqrt(dx * dx + dy * dy) / townRadiusKm(city.population);
  }
}
