/**
 * V8 settings for a process that serves requests. `--max-semi-space-size=64` (MB; V8's default is 16 on 64-bit
 * hosts) lets the young generation grow to 64 MB semi-spaces: a request's objects are collected by a scavenge
 * after it is answered instead of being promoted for surviving two, so the old generation fills slowly and its
 * mark-compact pauses (12–13 ms each, and the backlog they leave) come rarely. Measured with
 * `bench/places-search.ts` at 1M places, open loop at half saturation: near (d), p99 24.6 → 6.5 ms; the
 * server's resident memory did not grow (345 against 362 MB). It can only be set when the process starts.
 */
export const SERVING_V8_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/**
 * The serving flags to start a Node process with, beside `execArgv` and NODE_OPTIONS: each flag that neither
 * sets already (an operator's own setting wins).
 */
export function servingFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): string[] {
  const set = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) => arg.split('=')[0]!.replace(/_/g, '-'));
  return SERVING_V8_FLAGS.filter((flag) => !set.includes(flag.split('=')[0]!));
}
