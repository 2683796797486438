#!/usr/bin/env node
// Makes sure the Debian packages Cairn uses are present: the OWASP CRS (modsecurity-crs) for the WAF, and
// chromium for the browser tests (and libmodsecurity3 with gcc, to test @detectXSS against ModSecurity's
// libinjection). Installs them with apt-get when running as root; otherwise says how.
// For the multi-host test (npm run test:cluster): haproxy, the load balancer in front of the test hosts, and
// iproute2 for the network namespaces.
// Usage: node scripts/system-deps.mjs start|test|cluster
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const purpose = ['test', 'cluster'].includes(process.argv[2]) ? process.argv[2] : 'start';
const wanted = [];
if (purpose !== 'cluster') {
  wanted.push({
    pkg: 'modsecurity-crs',
    present: () => existsSync('/usr/share/modsecurity-crs/rules') || !!process.env.CAIRN_CRS_DIR,
    why: 'the OWASP Core Rule Set for the WAF (or set CAIRN_CRS_DIR)',
  });
}
if (purpose === 'cluster') {
  wanted.push({
    pkg: 'haproxy',
    present: () => existsSync('/usr/sbin/haproxy'),
    why: 'the load balancer of the multi-host test',
  });
  wanted.push({
    pkg: 'iproute2',
    present: () => existsSync('/usr/sbin/ip') || existsSync('/sbin/ip'),
    why: 'network namespaces for the multi-host test',
  });
}
if (purpose === 'test') {
  wanted.push({
    pkg: 'chromium',
    present: () => existsSync('/usr/bin/chromium'),
    why: 'the browser for the UI tests',
  });
  wanted.push({
    pkg: 'libmodsecurity3',
    present: () => existsSync('/usr/lib/x86_64-linux-gnu/libmodsecurity.so.3'),
    why: "ModSecurity's libinjection, which @detectXSS is tested against",
  });
  wanted.push({
    pkg: 'gcc',
    present: () => existsSync('/usr/bin/gcc'),
    why: 'builds the small driver through which the tests call libmodsecurity3',
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
  process.exit(purpose === 'start' ? 0 : 1);
}
