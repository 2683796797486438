import { badRequest, type Clock, systemClock } from '@cairn/kit';

/** The furthest one move may take the clock: ten years (a longer one is a mistake, not a test). */
export const MAX_MOVE_MS = 3650 * 86_400_000;

/** The clock's state as the controls report it. */
export interface ClockState {
  now: string;
  frozen: boolean;
  /** How far the sandbox's time is ahead of the real one, in milliseconds (at this instant). */
  offsetMs: number;
}

/**
 * A clock over the real one: moved forward by an offset, or frozen at an instant. Every service reads time
 * from it (deps.clock), so advancing it expires session tokens, codes, sessions and rate-limit windows.
 * It only moves forward; reset() (the sandbox's reset) goes back to the real time.
 */
export interface SandboxClock extends Clock {
  /** Stops time at the current instant (advance and set still move it). */
  freeze(): ClockState;
  /** Moves time forward by milliseconds or a duration such as "10m", "1h30m", "90s", "2d", "500ms". */
  advance(by: number | string): ClockState;
  /** Moves time forward to an instant (a Date, epoch milliseconds or an ISO 8601 text). */
  set(at: Date | number | string): ClockState;
  /** Lets time flow again from where it stands. */
  resume(): ClockState;
  /** Back to the real time, flowing. */
  reset(): ClockState;
  state(): ClockState;
  /** Called after every move (advance, set, reset), e.g. to prune what expired. */
  onMove(listener: () => void): void;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(?:\d{1,15}(?:ms|s|m|h|d))+$/;

/** Milliseconds of a duration: an integer (ms) or parts such as "1h30m", "10m", "500ms", "2d". */
export function parseDuration(by: number | string, where = 'by'): number {
  let ms: number;
  if (typeof by === 'number') {
    if (!Number.isFinite(by) || !Number.isInteger(by)) {
      throw badRequest(`"${where}" must be a whole number of milliseconds, got ${by}`, { parameter: where });
    }
    ms = by;
  } else {
    const text = by.trim();
    if (/^-/.test(text)) {
      throw badRequest(`"${where}" is negative ("${by}"): the clock only moves forward (reset goes back)`, {
        parameter: where,
      });
    }
    if (/^\d{1,16}$/.test(text)) ms = Number(text);
    else if (DURATION.test(text)) {
      ms = 0;
      for (const [, n, unit] of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(n) * UNIT_MS[unit!]!;
    } else {
      throw badRequest(
        `"${where}" must be milliseconds or a duration such as "10m", "1h30m", "90s", "2d" or "500ms", got "${by.slice(0, 40)}"`,
        { parameter: where },
      );
    }
  }
  if (ms < 0) {
    throw badRequest(`"${where}" is negative (${ms} ms): the clock only moves forward (reset goes back)`, {
      parameter: where,
    });
  }
  if (ms > MAX_MOVE_MS) {
    throw badRequest(`"${where}" moves the clock ${ms} ms; one move goes at most 3650 days`, {
      parameter: where,
    });
  }
  return ms;
}

function instant(at: Date | number | string): number {
  if (at instanceof Date) return at.getTime();
  if (typeof at === 'number') return at;
  // An ISO 8601 date-time with a zone (Date.parse accepts much else, read differently by engines).
  if (!/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(at))
    return Number.NaN;
  return Date.parse(at);
}

export function createSandboxClock(real: Clock = systemClock): SandboxClock {
  let offset = 0;
  let frozenAt: number | undefined;
  const listeners: (() => void)[] = [];
  const nowMs = () => frozenAt ?? real.nowMs() + offset;
  const state = (): ClockState => {
    const now = nowMs();
    return { now: new Date(now).toISOString(), frozen: frozenAt !== undefined, offsetMs: now - real.nowMs() };
  };
  const moved = () => {
    for (const listener of listeners) listener();
    return state();
  };
  function moveBy(ms: number) {
    if (frozenAt !== undefined) frozenAt += ms;
    else offset += ms;
  }
  return {
    now: () => new Date(nowMs()),
    nowMs,
    freeze() {
      frozenAt ??= nowMs();
      return state();
    },
    advance(by) {
      moveBy(parseDuration(by));
      return moved();
    },
    set(at) {
      const target = instant(at);
      if (!Number.isFinite(target)) {
        throw badRequest(
          `"to" must be an ISO 8601 date-time such as 2030-01-01T00:00:00Z, got ${JSON.stringify(String(at)).slice(0, 60)}`,
          { parameter: 'to' },
        );
      }
      const current = nowMs();
      if (target < current) {
        throw badRequest(
          `"to" (${new Date(target).toISOString()}) is before the sandbox's time (${new Date(current).toISOString()}): the clock only moves forward (reset goes back)`,
          { parameter: 'to' },
        );
      }
      if (target - current > MAX_MOVE_MS) {
        throw badRequest(`"to" is more than 3650 days ahead of the sandbox's time`, { parameter: 'to' });
      }
      moveBy(target - current);
      return moved();
    },
    resume() {
      if (frozenAt !== undefined) {
        offset = frozenAt - real.nowMs();
        frozenAt = undefined;
      }
      return state();
    },
    reset() {
      offset = 0;
      frozenAt = undefined;
      return moved();
    },
    state,
    onMove(listener) {
      listeners.push(listener);
    },
  };
}

export function isSandboxClock(clock: Clock): clock is SandboxClock {
  return typeof (clock as Partial<SandboxClock>).advance === 'function' && 'onMove' in clock;
}
