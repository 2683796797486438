// A CRS worker thread of the edge engine: loads CRS engines by profile (its own LRU, as the engine's
// thread does) and evaluates the requests the pool sends, one at a time, within the same CPU budget
// (the budget's clock is this thread's CPU time).
import { parentPort, workerData } from 'node:worker_threads';
import { linearEngine, type WafRequest } from '@cairn/seclang';
import { type CrsEngineOptions, CrsEngines, profileKey } from '../crs-engines.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

const port = parentPort;
if (!port) throw new Error('the CRS worker runs in a worker thread');
linearEngine();
const engines = new CrsEngines(workerData as CrsEngineOptions);
const post = (message: FromWorker) => port.postMessage(message);

port.on('message', (message: ToWorker) => {
  if (message.type === 'load') {
    try {
      engines.get(message.profile);
      post({ type: 'loaded', key: profileKey(message.profile) });
    } catch {
      // said again, with its reason, by the first request that needs it
    }
    return;
  }
  const { id, profile, request: r } = message;
  try {
    const request: WafRequest = {
      method: r.method,
      uri: r.uri,
      uriRaw: r.uriRaw,
      httpVersion: r.httpVersion,
      headers: r.headers,
      remoteAddr: r.remoteAddr,
      geoLookup: (address) => (address === r.remoteAddr ? r.geo : undefined),
      ...(r.body ? { body: r.body } : {}),
    };
    post({ type: 'result', id, result: engines.get(profile).evaluate(request) });
  } catch (error) {
    post({ type: 'error', id, message: (error as Error).message });
  }
});
post({ type: 'ready' });
