// Data-driven vectors: testdata/transformations/<name>.json, one file per transformation.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTransformation } from './index.ts';

const dir = join(import.meta.dirname, '../../testdata/transformations');

describe('transformations', () => {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const name = file.replace(/\.json$/, '');
    const vectors = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Array<{
      input: string;
      output: string;
    }>;
    it(`${name}: ${vectors.length} vectors`, () => {
      const def = getTransformation(name);
      expect(def, `transformation ${name} is registered`).toBeDefined();
      for (const v of vectors) expect(def!.transform(v.input), JSON.stringify(v.input)).toBe(v.output);
    });
  }

  it('looks names up case-insensitively and refuses duplicates', async () => {
    expect(getTransformation('URLDECODEUNI')?.name).toBe('urlDecodeUni');
    const { registerTransformation } = await import('./index.ts');
    expect(() => registerTransformation({ name: 'LowerCase', transform: (s) => s })).toThrow(
      /already registered/,
    );
  });

  it('returns the same string when nothing changes, so chains can skip work', () => {
    const input = 'plain value';
    for (const name of [
      'urlDecodeUni',
      'htmlEntityDecode',
      'jsDecode',
      'cssDecode',
      'removeNulls',
      'lowercase',
    ]) {
      expect(getTransformation(name)!.transform(input)).toBe(input);
    }
  });
});
