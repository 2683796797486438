/** Time source passed to everything that needs "now", so expiry is tested without sleeping. */
export interface Clock {
  now(): Date;
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  nowMs: () => Date.now(),
};

export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(at: Date | number): void;
}

export function createFakeClock(start: Date | number = Date.UTC(2025, 5, 17, 12, 0, 0)): FakeClock {
  let current = typeof start === 'number' ? start : start.getTime();
  return {
    now: () => new Date(current),
    nowMs: () => current,
    advance(ms) {
      current += ms;
    },
    set(at) {
      current = typeof at === 'number' ? at : at.getTime();
    },
  };
}
