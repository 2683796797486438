// The libinjection inside Debian's libmodsecurity3 (what ModSecurity's @detectXSS calls), reached
// through a small driver of ours compiled with gcc against libmodsecurity.so.3: its XSS decision
// and its HTML tokens for any bytes. Used by the differential test and by
// scripts/libinjection-xss-labels.ts; nothing of libinjection is compiled.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LIBMODSECURITY = '/usr/lib/x86_64-linux-gnu/libmodsecurity.so.3';

// Reads hex-encoded inputs, one a line; prints libinjection_xss() per line, or with "tok" the
// tokens of the data-state reading ("type,hex " each).
const DRIVER = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { const char* s; size_t len; size_t pos; int is_close; void* state;
  const char* token_start; size_t token_len; int token_type; } h5_state_t;
void libinjection_h5_init(h5_state_t*, const char*, size_t, int);
int libinjection_h5_next(h5_state_t*);
int libinjection_xss(const char*, size_t);
static int hex(int c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }
int main(int argc, char** argv) {
  int tokens = argc > 1 && strcmp(argv[1], "tok") == 0;
  size_t cap = 1 << 24; char* line = malloc(cap); char* in = malloc(cap / 2 + 1);
  while (fgets(line, (int) cap, stdin)) {
    size_t n = strcspn(line, "\\n"), m = n / 2;
    for (size_t i = 0; i < m; i++) in[i] = (char) (hex(line[2 * i]) * 16 + hex(line[2 * i + 1]));
    in[m] = 0;
    if (!tokens) { printf("%d\\n", libinjection_xss(in, m)); continue; }
    h5_state_t h; libinjection_h5_init(&h, in, m, 0);
    while (libinjection_h5_next(&h)) {
      printf("%d,", h.token_type);
      for (size_t i = 0; i < h.token_len; i++) printf("%02x", (unsigned char) h.token_start[i]);
      printf(" ");
    }
    printf("\\n");
  }
  return 0;
}
`;

/** Why the driver cannot be built here, or undefined when it can. */
export function driverUnavailable(): string | undefined {
  if (!existsSync(LIBMODSECURITY)) return `no ${LIBMODSECURITY} (apt-get install libmodsecurity3)`;
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no gcc (apt-get install gcc)';
  }
  return undefined;
}

/** Builds the driver in a temporary directory; returns its path. `sources` adds C files to link instead. */
export function buildDriver(sources?: { dir: string; files: string[] }): string {
  const work = mkdtempSync(join(tmpdir(), 'libinjection-xss-'));
  writeFileSync(join(work, 'driver.c'), DRIVER);
  const binary = join(work, 'driver');
  const link = sources
    ? [`-I${sources.dir}`, ...sources.files.map((f) => join(sources.dir, f))]
    : [LIBMODSECURITY];
  execFileSync('gcc', ['-O2', join(work, 'driver.c'), ...link, '-o', binary]);
  return binary;
}

/** The driver's answer per input (inputs are bytes: latin1 strings, one char per byte). */
export function runDriver(binary: string, inputs: readonly string[], mode?: 'tok'): string[] {
  const input = `${inputs.map((s) => Buffer.from(s, 'latin1').toString('hex')).join('\n')}\n`;
  const out = execFileSync(binary, mode ? [mode] : [], { input, maxBuffer: 1 << 30 });
  return out.toString('latin1').split('\n').slice(0, inputs.length);
}
