// The libinjection inside Debian's libmodsecurity3 (what ModSecurity's @detectSQLi calls), reached
// through a small driver of ours compiled with gcc against libmodsecurity.so.3: for any bytes, its
// SQLi decision with the matching fingerprint, and the fingerprint of each of the five readings
// libinjection_is_sqli may try. Nothing of libinjection is compiled. How the vectors of
// testdata/libinjection/sqli-*.json were labelled (sqli-vectors.md).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LIBMODSECURITY = '/usr/lib/x86_64-linux-gnu/libmodsecurity.so.3';

// Reads hex-encoded inputs, one a line; prints "<0|1> <fingerprint or -> <five reading fingerprints>".
// The state is opaque here: a buffer larger than libinjection's struct, which init fills.
const DRIVER = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int libinjection_sqli(const char*, size_t, char*);
void libinjection_sqli_init(void*, const char*, size_t, int);
const char* libinjection_sqli_fingerprint(void*, int);
static int hex(int c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }
static long long state[4096];
int main(void) {
  /* as is ANSI, as is MySQL, after ' ANSI, after ' MySQL, after " MySQL */
  const int readings[5] = { 1 | 8, 1 | 16, 2 | 8, 2 | 16, 4 | 16 };
  size_t cap = 1 << 24; char* line = malloc(cap); char* in = malloc(cap / 2 + 1);
  while (fgets(line, (int) cap, stdin)) {
    size_t n = strcspn(line, "\\n"), m = n / 2;
    for (size_t i = 0; i < m; i++) in[i] = (char) (hex(line[2 * i]) * 16 + hex(line[2 * i + 1]));
    in[m] = 0;
    char fp[16] = { 0 };
    int sqli = libinjection_sqli(in, m, fp);
    printf("%d %s", sqli, sqli ? fp : "-");
    for (int k = 0; k < 5; k++) {
      libinjection_sqli_init(state, in, m, 0);
      const char* f = libinjection_sqli_fingerprint(state, readings[k]);
      printf(" %s", *f ? f : "-");
    }
    printf("\\n");
  }
  return 0;
}
`;

export interface LibinjectionSqli {
  sqli: boolean;
  fingerprint: string | null;
  /** As is ANSI, as is MySQL, after ' ANSI, after ' MySQL, after " MySQL ('-' for none). */
  readings: string[];
}

/** Why the driver cannot be built here, or undefined when it can. */
export function sqliDriverUnavailable(): string | undefined {
  if (!existsSync(LIBMODSECURITY)) return `no ${LIBMODSECURITY} (apt-get install libmodsecurity3)`;
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no gcc (apt-get install gcc)';
  }
  return undefined;
}

/** Builds the driver in a temporary directory; returns its path. */
export function buildSqliDriver(): string {
  const work = mkdtempSync(join(tmpdir(), 'libinjection-sqli-'));
  writeFileSync(join(work, 'driver.c'), DRIVER);
  const binary = join(work, 'driver');
  execFileSync('gcc', ['-O2', join(work, 'driver.c'), LIBMODSECURITY, '-o', binary]);
  return binary;
}

/** libinjection's answer per input (inputs are bytes: latin1 strings, one char per byte). */
export function runSqliDriver(binary: string, inputs: readonly string[]): LibinjectionSqli[] {
  const input = `${inputs.map((s) => Buffer.from(s, 'latin1').toString('hex')).join('\n')}\n`;
  const out = execFileSync(binary, { input, maxBuffer: 1 << 30 })
    .toString('latin1')
    .split('\n');
  return inputs.map((_, k) => {
    const [decision, fingerprint, ...readings] = (out[k] ?? '').split(' ');
    return { sqli: decision === '1', fingerprint: decision === '1' ? (fingerprint ?? '') : null, readings };
  });
}
