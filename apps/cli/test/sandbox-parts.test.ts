import { createFakeClock } from '@cairn/kit';
import { describe, expect, it } from 'vitest';
import { createSandboxClock, parseDuration } from '../src/sandbox/clock.ts';
import { FaultTable, matchesPattern } from '../src/sandbox/faults.ts';
import { RequestJournal, redactHeaders } from '../src/sandbox/journal.ts';

const entry = (path: string) => ({
  at: new Date(0).toISOString(),
  method: 'GET',
  path,
  query: {},
  status: 200,
  durationMs: 1,
  requestId: 'r',
  headers: {},
});

describe('sandbox parts', () => {
  it('the journal keeps the last N calls (a ring) and counts the dropped ones', () => {
    const journal = new RequestJournal(3);
    for (let i = 1; i <= 5; i++) journal.add(entry(`/p${i}`));
    expect(journal.list().map((e) => e.path)).toEqual(['/p3', '/p4', '/p5']);
    expect(journal.dropped).toBe(2);
    expect(journal.list({ limit: 1 }).map((e) => e.path)).toEqual(['/p5']);
    expect(journal.clear()).toBe(3);
    expect(journal.list()).toEqual([]);
  });

  it('redacts credentials in headers, keeping the scheme and the token kind', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer at_abcdefghijklmnop',
        cookie: 'cairn_session=bs_secret',
        'x-users-api-version': '2025-06-17',
      }),
    ).toEqual({
      authorization: 'Bearer at_[redacted]',
      cookie: '[redacted]',
      'x-users-api-version': '2025-06-17',
    });
    expect(redactHeaders({ authorization: 'Basic dXNlcjpwYXNz' }).authorization).toBe('Basic [redacted]');
  });

  it('durations: milliseconds or unit parts; negative, fractional and over 3650 days refused', () => {
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('2d3s500ms')).toBe(172_803_500);
    expect(parseDuration(1500)).toBe(1500);
    expect(parseDuration('1500')).toBe(1500);
    for (const bad of ['-1s', -1, 0.5, '3651d', '10 minutes', '', 'm']) {
      expect(() => parseDuration(bad), String(bad)).toThrow(/"by"/);
    }
  });

  it('the clock: an offset over the real time, frozen or flowing, forward only', () => {
    const real = createFakeClock(Date.UTC(2030, 0, 1));
    const clock = createSandboxClock(real);
    clock.advance('1h');
    real.advance(1000);
    expect(clock.nowMs()).toBe(Date.UTC(2030, 0, 1) + 3_600_000 + 1000);
    clock.freeze();
    real.advance(5000);
    expect(clock.nowMs()).toBe(Date.UTC(2030, 0, 1) + 3_601_000);
    clock.resume();
    real.advance(1000);
    expect(clock.nowMs()).toBe(Date.UTC(2030, 0, 1) + 3_602_000);
    expect(() => clock.set(Date.UTC(2029, 0, 1))).toThrow(/only moves forward/);
    clock.reset();
    expect(clock.nowMs()).toBe(real.nowMs());
  });

  it('route patterns: "*" is any characters, matched in linear-ish time even with many stars', () => {
    expect(matchesPattern('/places/*', '/places/search')).toBe(true);
    expect(matchesPattern('/places/*/votes', '/places/abc/votes')).toBe(true);
    expect(matchesPattern('/places/*/votes', '/places/abc/edits')).toBe(false);
    expect(matchesPattern('/users/managed-user/create', '/users/managed-user/create')).toBe(true);
    expect(matchesPattern('/users', '/users/x')).toBe(false);
    // A pattern a backtracking regex would take exponential time on.
    expect(matchesPattern(`/${'*a'.repeat(200)}b`, `/${'a'.repeat(5000)}`)).toBe(false);
  });

  it('faults for N calls are spent and go; a probability uses the given random numbers; never /_cairn/', () => {
    const randoms = [0.9, 0.1];
    const table = new FaultTable(() => randoms.shift() ?? 1);
    table.add({ route: '/a', status: 503, times: 2 });
    expect(table.take('GET', '/a')?.remaining).toBe(1);
    expect(table.take('GET', '/a')?.remaining).toBe(0);
    expect(table.take('GET', '/a')).toBeUndefined();
    table.add({ route: '/b', status: 429, probability: 0.5 });
    expect(table.take('GET', '/b')).toBeUndefined(); // 0.9
    expect(table.take('GET', '/b')?.status).toBe(429); // 0.1
    table.add({ route: '/*', status: 503 });
    expect(table.take('GET', '/_cairn/reset')).toBeUndefined();
    expect(() => table.add({ route: '/_cairn/*', status: 503 })).toThrow(/_cairn/);
  });
});
