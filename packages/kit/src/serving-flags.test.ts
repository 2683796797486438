import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVING_V8_FLAGS, servingFlags } from './serving-flags.ts';

describe('the V8 flags a serving process starts with', () => {
  it('adds the serving flags when neither the command line nor NODE_OPTIONS sets them', () => {
    expect(servingFlags(['--import', 'tsx'], '--enable-source-maps')).toEqual([...SERVING_V8_FLAGS]);
  });

  it('leaves a flag the operator set, in either spelling, on the command line or in NODE_OPTIONS', () => {
    expect(servingFlags(['--max-semi-space-size=16'], '')).toEqual(['--no-memory-reducer']);
    expect(servingFlags([], '--max_semi_space_size=8 --inspect')).toEqual(['--no-memory-reducer']);
    expect(servingFlags(['--max-semi-space-size=16', '--memory-reducer'], '')).toEqual([]);
    expect(servingFlags([], '--max-semi-space-size=16 --no_memory_reducer')).toEqual([]);
  });

  it('gives flags V8 accepts: a process started with them runs', () => {
    const run = spawnSync(process.execPath, [...SERVING_V8_FLAGS, '-e', 'process.stdout.write("ok")'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ok');
  });
});
