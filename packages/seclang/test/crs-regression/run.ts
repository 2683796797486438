// `npm run crs:regression -w @cairn/seclang`: prints pass/fail counts and every failure.
// Flags: --verbose (matched ids of failures), a test title or rule id to run only those.

import { type RegressionReport, runRegression } from './runner.ts';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const only = args.filter((a) => !a.startsWith('--'));

const started = performance.now();
const report: RegressionReport = runRegression();
const failures = only.length
  ? report.failures.filter((f) => only.some((o) => f.test.title.startsWith(o)))
  : report.failures;
for (const f of failures) {
  console.log(
    `FAIL ${f.test.title} (${f.test.file}): ${f.reason}${verbose ? ` — matched [${f.ids.join(' ')}]` : ''}`,
  );
}
console.log(
  `\nCRS 3.3.4 regression: ${report.passed}/${report.applicable} applicable tests passed ` +
    `(${report.total} in corpus, ${report.skipped.length} skipped with reasons in overrides.yaml), ` +
    `${report.failures.length} failed, ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
process.exitCode = report.failures.length === 0 ? 0 : 1;
