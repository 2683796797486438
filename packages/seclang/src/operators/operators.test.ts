// Data-driven vectors: testdata/operators/<name>.json ({param, input, ret}), one file per operator.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PersistentStore } from '../engine/collections/persistent-store.ts';
import { Transaction } from '../engine/transaction.ts';
import { loadRules } from '../loader.ts';
import type { LoadContext } from '../types.ts';
import { getOperator } from './index.ts';

const dir = join(import.meta.dirname, '../../testdata/operators');
const ctx: LoadContext = { file: 'test.conf', line: 1, dir, readFile: (p) => readFileSync(p, 'latin1') };

function newTx(): Transaction {
  const waf = loadRules('');
  return new Transaction(
    waf.ruleset,
    { method: 'GET', uri: '/', headers: [] },
    new PersistentStore(),
    'test',
  );
}

describe('operators', () => {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const name = file.replace(/\.json$/, '');
    const vectors = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Array<{
      param: string;
      input: string;
      ret: number;
    }>;
    it(`@${name}: ${vectors.length} vectors`, () => {
      const def = getOperator(name);
      expect(def, `operator @${name} is registered`).toBeDefined();
      for (const v of vectors) {
        const op = def!.compile(v.param, ctx);
        expect(op(newTx(), v.input), `@${name} ${v.param} on ${JSON.stringify(v.input)}`).toBe(v.ret === 1);
      }
    });
  }

  it('@rx with capture fills TX:0..9', () => {
    const tx = newTx();
    tx.capture = true;
    expect(getOperator('rx')!.compile('(\\d+)-(\\d+)', ctx)(tx, 'id 12-34')).toBe(true);
    expect([tx.tx.get('0'), tx.tx.get('1'), tx.tx.get('2')]).toEqual(['12-34', '12', '34']);
  });

  it('@pm with capture puts the phrase found in TX:0', () => {
    const tx = newTx();
    tx.capture = true;
    expect(getOperator('pm')!.compile('passwd shadow', ctx)(tx, '/etc/SHADOW')).toBe(true);
    expect(tx.tx.get('0')).toBe('shadow');
  });

  it('expands macros in arguments at run time', () => {
    const tx = newTx();
    tx.tx.set('allowed', 'GET POST');
    expect(getOperator('within')!.compile('%{tx.allowed}', ctx)(tx, 'POST')).toBe(true);
    tx.tx.set('limit', '3');
    expect(getOperator('gt')!.compile('%{tx.limit}', ctx)(tx, '4')).toBe(true);
    tx.tx.set('cs', 'utf-8|latin1');
    expect(getOperator('rx')!.compile('^%{tx.cs}$', ctx)(tx, 'latin1')).toBe(true);
  });

  it('refuses a bad argument at load time', () => {
    expect(() => getOperator('validateByteRange')!.compile('1-300', ctx)).toThrow(/bad byte range/);
    expect(() => getOperator('ipMatch')!.compile('1.2.3', ctx)).toThrow(/bad IP/);
    expect(() => getOperator('rx')!.compile('(?<=a', ctx)).toThrow(/does not compile/);
  });
});
