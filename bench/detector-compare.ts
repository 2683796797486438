// CPU cost of a detector against the one it replaced, for bench/detect-sqli.ts and bench/detect-xss.ts.

/** A detector as the benches call it: does this input match? */
export type Detect = (input: string) => boolean;

let sink = 0;

/** CPU nanoseconds (user + system, so other processes' load does not count) per call of one pass. */
export function onePass(detect: Detect, inputs: string[]): number {
  const started = process.cpuUsage();
  for (const input of inputs) if (detect(input)) sink++;
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / inputs.length;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Medians over `rounds` alternating passes (current, legacy, current…), after a warm-up pass of each. */
export function compareDetectors(
  current: Detect,
  legacy: Detect,
  inputs: string[],
  rounds: number,
): { now: number; legacy: number; ratio: number } {
  onePass(current, inputs);
  onePass(legacy, inputs);
  const nows: number[] = [];
  const legacies: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    nows.push(onePass(current, inputs));
    legacies.push(onePass(legacy, inputs));
    ratios.push(nows[round]! / legacies[round]!);
  }
  if (sink < 0) console.log(sink); // keeps the calls' results alive
  return { now: median(nows), legacy: median(legacies), ratio: median(ratios) };
}
