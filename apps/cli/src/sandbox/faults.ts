import { badRequest } from '@cairn/kit';

/** What a caller asks for (over HTTP in snake_case, in process in camelCase). */
export interface FaultInput {
  /** A path pattern: "*" stands for any characters, e.g. "/places/v1/*" or "/users/managed-user/create". */
  route: string;
  /** Only this method (any when absent). */
  method?: string;
  /** Answer with this status (400–599) instead of serving the call. */
  status?: number;
  /** With a status: the Retry-After header, in seconds. */
  retryAfter?: number;
  /** Wait this long before serving (or before the fault's answer). */
  latencyMs?: number;
  /** Reset the connection (TCP RST) instead of answering. */
  resetConnection?: boolean;
  /** Apply to the next N matching calls, then the fault is spent. */
  times?: number;
  /** Apply to each matching call with this probability (0 < p ≤ 1). */
  probability?: number;
}

export interface Fault {
  id: string;
  route: string;
  method?: string;
  status?: number;
  retryAfter?: number;
  latencyMs?: number;
  resetConnection?: boolean;
  times?: number;
  probability?: number;
  /** Calls left when `times` was given. */
  remaining?: number;
  /** Calls it was applied to. */
  hits: number;
}

export const CONTROL_PREFIX = '/_cairn';
const MAX_LATENCY_MS = 60_000;
const MAX_FAULTS = 100;
const METHOD = /^[A-Z]{1,16}$/;

function wholeNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(
      `"${field}" must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
      {
        pointer: `/${field}`,
      },
    );
  }
  return value;
}

/** The literal text a pattern starts with (up to its first "*"). */
const literalPrefix = (route: string) => route.split('*', 1)[0]!;

/**
 * Whether `path` matches `pattern`, where "*" stands for any characters: the greedy wildcard match that
 * backtracks only to the last "*" (O(pattern × path) at worst; a regex of many ".*" could backtrack far more).
 */
export function matchesPattern(pattern: string, path: string): boolean {
  let p = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < path.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === path[s]) {
      p++;
      s++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = s;
    } else if (star >= 0) {
      p = star + 1;
      s = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Checks a fault as given (field names as over HTTP: snake_case). */
export function parseFault(input: Partial<Record<keyof FaultInput, unknown>>, id: string): Fault {
  const { route, method } = input;
  if (typeof route !== 'string' || !route.startsWith('/') || route.length > 512) {
    throw badRequest(
      `"route" must be a path pattern starting with "/" (at most 512 characters; "*" matches any characters), got ${JSON.stringify(route)?.slice(0, 80) ?? 'nothing'}`,
      { pointer: '/route' },
    );
  }
  const prefix = literalPrefix(route);
  // The controls themselves are never faulted: a test could not clear the fault it made.
  if (prefix.startsWith(CONTROL_PREFIX) || (prefix.length > 1 && `${CONTROL_PREFIX}/`.startsWith(prefix))) {
    throw badRequest(
      `"route" ${JSON.stringify(route)} would match the sandbox's own controls under /_cairn/; faults apply to the APIs only`,
      {
        pointer: '/route',
      },
    );
  }
  const fault: Fault = { id, route, hits: 0 };
  if (method !== undefined) {
    if (typeof method !== 'string' || !METHOD.test(method.toUpperCase())) {
      throw badRequest(
        `"method" must be an HTTP method such as GET or POST, got ${JSON.stringify(method)?.slice(0, 40)}`,
        {
          pointer: '/method',
        },
      );
    }
    fault.method = method.toUpperCase();
  }
  if (input.status !== undefined) fault.status = wholeNumber(input.status, 'status', 400, 599);
  if (input.retryAfter !== undefined) {
    if (fault.status === undefined) {
      throw badRequest('"retry_after" needs a "status" to answer with (such as 429 or 503)', {
        pointer: '/retry_after',
      });
    }
    fault.retryAfter = wholeNumber(input.retryAfter, 'retry_after', 0, 86_400);
  }
  if (input.latencyMs !== undefined)
    fault.latencyMs = wholeNumber(input.latencyMs, 'latency_ms', 0, MAX_LATENCY_MS);
  if (input.resetConnection !== undefined) {
    if (typeof input.resetConnection !== 'boolean') {
      throw badRequest('"reset_connection" must be true or false', { pointer: '/reset_connection' });
    }
    if (input.resetConnection) {
      if (fault.status !== undefined) {
        throw badRequest('a fault either answers with "status" or resets the connection, not both', {
          pointer: '/reset_connection',
        });
      }
      fault.resetConnection = true;
    }
  }
  if (fault.status === undefined && !fault.resetConnection && fault.latencyMs === undefined) {
    throw badRequest('a fault needs at least one of "status", "latency_ms" or "reset_connection"', {
      pointer: '/status',
    });
  }
  if (input.times !== undefined && input.probability !== undefined) {
    throw badRequest('give "times" (the next N calls) or "probability", not both', {
      pointer: '/probability',
    });
  }
  if (input.times !== undefined) {
    fault.times = wholeNumber(input.times, 'times', 1, 1_000_000);
    fault.remaining = fault.times;
  }
  if (input.probability !== undefined) {
    const p = input.probability;
    if (typeof p !== 'number' || !(p > 0 && p <= 1)) {
      throw badRequest(`"probability" must be a number above 0 and at most 1, got ${JSON.stringify(p)}`, {
        pointer: '/probability',
      });
    }
    fault.probability = p;
  }
  return fault;
}

/** The faults in force, matched against each call to the API port in the order they were added. */
export class FaultTable {
  private readonly faults: Fault[] = [];
  private next = 1;

  constructor(private readonly random: () => number = Math.random) {}

  add(input: FaultInput): Fault {
    if (this.faults.length >= MAX_FAULTS) {
      throw badRequest(`at most ${MAX_FAULTS} faults at a time; clear some first`);
    }
    const fault = parseFault(
      {
        route: input.route,
        method: input.method,
        status: input.status,
        retryAfter: input.retryAfter,
        latencyMs: input.latencyMs,
        resetConnection: input.resetConnection,
        times: input.times,
        probability: input.probability,
      },
      `fault_${this.next}`,
    );
    this.next++;
    this.faults.push(fault);
    return { ...fault };
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): number {
    return this.faults.splice(0).length;
  }

  /** The fault to apply to this call, if any (counted as applied). Never one for the controls. */
  take(method: string, path: string): Fault | undefined {
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return undefined;
    for (let i = 0; i < this.faults.length; i++) {
      const fault = this.faults[i]!;
      if (fault.method && fault.method !== method && !(fault.method === 'GET' && method === 'HEAD')) continue;
      if (!matchesPattern(fault.route, path)) continue;
      if (fault.probability !== undefined && this.random() >= fault.probability) continue;
      fault.hits++;
      if (fault.remaining !== undefined) {
        fault.remaining--;
        if (fault.remaining === 0) this.faults.splice(i, 1);
      }
      return { ...fault };
    }
    return undefined;
  }
}
