import type { Clock, Db } from '@cairn/kit';
import type { EditsConfig } from './config.ts';
import type { Gazetteer } from './reference/cities.ts';
import type { Reference } from './reference/reference.ts';

/** What the places service needs: storage, time, and the reference data it keeps in memory. */
export interface PlacesDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  reference(): Reference;
  gazetteer(): Gazetteer;
  cursorSecret(): Promise<Buffer>;
  /** How votes resolve suggested edits. */
  edits: Readonly<EditsConfig>;
}
