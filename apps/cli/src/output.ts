import type { Output } from './command.ts';

export function consoleOutput(): Output {
  return {
    line: (text) => process.stdout.write(`${text}\n`),
    json: (value) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    error: (text) => process.stderr.write(`${text}\n`),
  };
}

/** Collects output, for commands run inside the server on behalf of a CLI process. */
export function bufferedOutput() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out: Output = {
    line: (text) => stdout.push(`${text}\n`),
    json: (value) => stdout.push(`${JSON.stringify(value, null, 2)}\n`),
    error: (text) => stderr.push(`${text}\n`),
  };
  return { out, stdout: () => stdout.join(''), stderr: () => stderr.join('') };
}

/** A plain text table: one row per item, columns padded. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
