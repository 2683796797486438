// The proxy of the streaming test in a process of its own, so its resident memory is measured alone:
//   node --import tsx proxy-streaming-child.ts
// Starts the proxy fixture (its origin streams too) with a zone whose WAF runs both managed rulesets
// (OWASP CRS at PL1), prints {"proxy": "http://…"} on a line, and runs until stdin closes.
import { deployManaged, startProxyFixture } from './proxy-fixture.ts';

// a wide WAF time budget: on a loaded machine a preempted evaluation would be refused (fail closed)
const f = await startProxyFixture({ EDGE_ORIGIN_TIMEOUT_MS: '30000', EDGE_WAF_TIME_BUDGET_MS: '5000' });
const zone = await f.zone('stream.example.com', 'enterprise', 'complete');
await deployManaged(f, zone.id);
// warm the path (CRS engine, pools) so its one-off allocations are in the baseline
const warm = await f.send('stream.example.com', '/echo/warm', { method: 'POST', body: 'a=1' });
if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}`);
process.stdout.write(`${JSON.stringify({ proxy: f.proxy.address })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  f.close().then(() => process.exit(0));
});
