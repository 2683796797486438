/**
 * V8 settings for a process that serves requests, each measured with `bench/places-search.ts` at 1M places,
 * open loop at half saturation, on two cores shared with PostgreSQL. They can only be set when the process starts.
 *
 * `--max-semi-space-size=64` (MB; V8's default is 16 on 64-bit hosts) lets the young generation grow to 64 MB
 * semi-spaces: a request's objects are collected by a scavenge after it is answered instead of being promoted
 * for surviving two, so the old generation fills slowly and its mark-compact pauses (12–13 ms each, and the
 * backlog they leave) come rarely. Near (d), p99 24.6 → 6.5 ms; resident memory 345 against 362 MB.
 *
 * `--no-memory-reducer`: V8's memory reducer takes a drop in the allocation rate (a load that eases, as
 * from a burst to a steady rate) for idleness and shrinks the heap: the young generation back to 1 MB, then a
 * mark-compact. Until it regrows, a scavenge comes every few milliseconds and promotes every request in flight,
 * which fills the old generation and brings the next mark-compact within seconds: 0.2–0.8 s in which answers
 * queue. Each 10-second round it fell in had a p99 of 90–370 ms (8 of 24 rounds on 28 November, every other
 * round 4–20 ms); without it no mark-compact came in 200 s of searching, and no round went over 20 ms. The cost:
 * an idle server keeps the heap it grew (resident 607 against ~500 MB at peak after that run).
 */
export const SERVING_V8_FLAGS: readonly string[] = ['--max-semi-space-size=64', '--no-memory-reducer'];

/** A V8 flag's name without its value or a `--no-` negation, in the dashed spelling. */
function flagName(arg: string): string {
  return arg
    .split('=')[0]!
    .replace(/_/g, '-')
    .replace(/^--no-/, '--');
}

/**
 * The serving flags to start a Node process with, beside `execArgv` and NODE_OPTIONS: each flag that neither
 * sets already (an operator's own setting wins).
 */
export function servingFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): string[] {
  const set = [...execArgv, ...nodeOptions.split(/\s+/)].map(flagName);
  return SERVING_V8_FLAGS.filter((flag) => !set.includes(flagName(flag)));
}
