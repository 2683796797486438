#!/usr/bin/env node
// Makes sure the Debian packages Cairn uses are present: the OWASP CRS (modsecurity-crs) for the WAF, and
// chromium for the browser tests. Installs them with apt-get when running as root; otherwise says how.
// Usage: node scripts/system-deps.mjs start|test
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const purpose = process.argv[2] === 'test' ? 'test' : 'start';
const wanted = [
  {
    pkg: 'modsecurity-crs',
    present: () => existsSync('/usr/share/modsecurity-crs/rules') || !!process.env.CAIRN_CRS_DIR,
    why: 'the OWASP Core Rule Set for the WAF (or set CAIRN_CRS_DIR)',
  },
];
if (purpose === 'test') {
  wanted.push({
    pkg: 'chromium',
    present: () => existsSync('/usr/bin/chromium'),
    why: 'the browser for the UI tests',
  });
  wanted.push({
    pkg: 'jq',
    present: () => existsSync('/usr/bin/jq'),
    why: "the README's tour uses it, and a test runs the tour",
  });
}

const missing = wanted.filter((w) => !w.present());
if (missing.length === 0) process.exit(0);

const names = missing.map((m) => m.pkg);
const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  for (const m of missing)
    console.error(`cairn: missing ${m.pkg}: ${m.why}. Install it with: sudo apt-get install -y ${m.pkg}`);
  process.exit(0);
}

console.error(`cairn: installing ${names.join(', ')} with apt-get (once)…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
try {
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
} catch (error) {
  console.error(`cairn: could not install ${names.join(', ')}: ${error.message}`);
  process.exit(purpose === 'test' ? 1 : 0);
}
