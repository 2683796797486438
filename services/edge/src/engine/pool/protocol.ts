// The messages between the edge engine and its CRS worker threads (structured clone: plain data only).
import type { EvaluationResult, GeoRecord } from '@cairn/seclang';
import type { CrsProfile } from '../crs-engines.ts';

/**
 * What the CRS reads of a request, as a worker receives it. The geolocation database stays in the
 * engine's thread: `geo` is its answer for `remoteAddr` (the only address the CRS looks up).
 */
export interface PooledRequest {
  method: string;
  uri: string;
  uriRaw: string;
  httpVersion: string;
  headers: [string, string][];
  remoteAddr: string;
  body?: Uint8Array;
  geo?: GeoRecord;
}

export type ToWorker =
  /** Load the profile's engine now (a zone's plan was compiled with it), so no request waits for it. */
  | { type: 'load'; profile: CrsProfile }
  | { type: 'evaluate'; id: number; profile: CrsProfile; request: PooledRequest };

export type FromWorker =
  | { type: 'ready' }
  /** The engine of the profile with this key (profileKey) is loaded. */
  | { type: 'loaded'; key: string }
  | { type: 'result'; id: number; result: EvaluationResult }
  | { type: 'error'; id: number; message: string };

/**
 * What the pool answers: the CRS's result, or why the request got none (the queue was full, the worker
 * died or failed) — the engine then refuses the request (fail closed).
 */
export type PoolAnswer = EvaluationResult | { refused: string };
