// Migration fidelity: zones with random mixes of the previous WAF's features, benign traffic, the CRS
// 3.3.4 corpus's requests and an attack per managed signature, decided by the previous WAF and by the
// configuration the upgrade produces; prints agreement per feature and in total, and every difference
// with the seed row that explains it.
//   npm run edge:fidelity [-- --seed N --zones N --crs N]
import { loadavg } from 'node:os';
import { formatReport, runFidelity } from '../services/edge/test/fidelity/harness.ts';
import { startProxyFixture } from '../services/edge/test/proxy-fixture.ts';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const seed = arg('seed', 18);
const zones = arg('zones', 24);
const crs = arg('crs', 400);

const started = Date.now();
const f = await startProxyFixture();
try {
  const report = await runFidelity(f, {
    seed,
    zones,
    crsPerZone: crs,
    onZone: (n) => process.stderr.write(`\rzone ${n}/${zones}`),
  });
  process.stderr.write('\n');
  process.stdout.write(`${formatReport(report)}\n`);
  process.stdout.write(
    `\nnpm run edge:fidelity -- --seed ${seed} --zones ${zones} --crs ${crs}; ${((Date.now() - started) / 1000).toFixed(0)} s; load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${(await import('node:os')).cpus().length} cores\n`,
  );
  if (report.differences.some((d) => !d.reason)) process.exitCode = 1;
} finally {
  await f.close();
}
