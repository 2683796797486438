import { linearEngine } from '@cairn/seclang';
import { describe, expect, it } from 'vitest';
import { wildcardUrl } from './url-pattern.ts';

describe('wildcard URL patterns', () => {
  it('ignore case on both sides and default the scheme', () => {
    const m = wildcardUrl('Example.com/Admin/*');
    expect(m('https://example.COM/admin/users')).toBe(true);
    expect(m('http://EXAMPLE.com/ADMIN/')).toBe(true);
    expect(m('https://example.com/public/admin/')).toBe(false);
  });

  it('stay linear on a hostile URL: many stars against 16 KB that almost matches', () => {
    linearEngine();
    const m = wildcardUrl('example.com/*a*a*a*a*a*a*a*a*b');
    const url = `https://example.com/${'a'.repeat(16_000)}`;
    const started = process.cpuUsage();
    expect(m(url)).toBe(false);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
  });
});
