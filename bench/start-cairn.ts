// Benchmark: a warm startCairn (issue 21; the target is under 2 s) — every API and the edge proxy on free
// ports, on an in-memory PGlite cloned from the template (built once before the rounds, not counted), in
// sandbox mode, up to the moment it answers. The peer is the floor under it: PGlite's own clone() of an
// in-memory instance holding the same template data (what a test suite pays for a fresh database alone).
// Paired rounds; prints medians of wall time and of this process's CPU time (user + system: PGlite runs
// in this thread, so a loaded machine stretches the wall time but not the CPU time), ratios and the load.
//
// Run: npx tsx bench/start-cairn.ts [rounds, default 10] [places, default 1000]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { startCairn } from '../apps/cli/src/testing.ts';
import { pgliteOptions } from '../packages/kit/src/db/pglite.ts';
import { report } from './report.ts';

const rounds = Number(process.argv[2] ?? 10);
const places = Number(process.argv[3] ?? 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const cacheDir = mkdtempSync(join(tmpdir(), 'cairn-bench-start-'));

try {
  const coldStart = performance.now();
  const first = await startCairn({ places, cacheDir });
  const cold = performance.now() - coldStart;
  await first.stop();
  // The peer's source: an in-memory instance holding the template's data.
  const tar = readdirSync(cacheDir).find((f) => f.endsWith('.tar'));
  if (!tar) throw new Error('no template was written');
  const source = await PGlite.create({
    ...pgliteOptions,
    loadDataDir: new Blob([readFileSync(join(cacheDir, tar))]),
  });

  const ours: number[] = [];
  const peer: number[] = [];
  const oursCpu: number[] = [];
  const peerCpu: number[] = [];
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  for (let i = 0; i < rounds; i++) {
    let cpu = process.cpuUsage();
    let t = performance.now();
    const cairn = await startCairn({ places, cacheDir });
    const answer = await fetch(`${cairn.url}/healthz`);
    if (!answer.ok) throw new Error(`healthz answered ${answer.status}`);
    await answer.arrayBuffer();
    ours.push(performance.now() - t);
    oursCpu.push(cpuMs(cpu));
    await cairn.stop();

    cpu = process.cpuUsage();
    t = performance.now();
    const clone = await source.clone();
    await clone.query('SELECT 1');
    peer.push(performance.now() - t);
    peerCpu.push(cpuMs(cpu));
    await clone.close();
  }
  await source.close();

  const load = loadavg().map((l) => l.toFixed(1));
  const o = median(ours);
  const p = median(peer);
  const oc = median(oursCpu);
  const pc = median(peerCpu);
  console.log(`startCairn (${places} places), ${rounds} paired rounds, load ${load.join(' ')} (1/5/15 min)`);
  console.log(`  first start (template built): ${(cold / 1000).toFixed(2)} s`);
  console.log(
    `  warm start, median:           ${(o / 1000).toFixed(2)} s wall, ${(oc / 1000).toFixed(2)} s CPU  (target < 2 s)`,
  );
  console.log(
    `  PGlite clone() alone, median: ${(p / 1000).toFixed(2)} s wall, ${(pc / 1000).toFixed(2)} s CPU`,
  );
  console.log(`  ratio startCairn / clone:     ${(o / p).toFixed(2)} wall, ${(oc / pc).toFixed(2)} CPU`);
  report({
    bench: 'start-cairn',
    name: 'warm startCairn',
    unit: 'ms',
    ours: Math.round(o),
    peer: { name: 'PGlite clone()', value: Math.round(p) },
    lowerIsBetter: true,
  });
  report({
    bench: 'start-cairn',
    name: 'warm startCairn, CPU time',
    unit: 'ms',
    ours: Math.round(oc),
    peer: { name: 'PGlite clone(), CPU time', value: Math.round(pc) },
    lowerIsBetter: true,
  });
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
