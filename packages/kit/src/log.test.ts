import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './log.ts';

describe('redactUrl', () => {
  it('hides the values of secret query parameters and keeps the rest', () => {
    expect(
      redactUrl(
        '/oauth2/access_token?client_id=abc&client_secret=s3cr3t&code=ac_x&grant_type=authorization_code',
      ),
    ).toBe(
      '/oauth2/access_token?client_id=abc&client_secret=[REDACTED]&code=[REDACTED]&grant_type=authorization_code',
    );
    expect(redactUrl('/placemakers/home?session_token=st_abc')).toBe(
      '/placemakers/home?session_token=[REDACTED]',
    );
    expect(redactUrl('/x?Access_Token=1&%63ode=2')).toBe('/x?Access_Token=[REDACTED]&%63ode=[REDACTED]');
    expect(redactUrl('/places/search?query=code')).toBe('/places/search?query=code');
    expect(redactUrl('/plain')).toBe('/plain');
  });
});

describe('createLogger', () => {
  const capture = (isTTY: boolean) => {
    const chunks: string[] = [];
    const stream = Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk.toString('utf8'));
          done();
        },
      }),
      { isTTY },
    );
    return { stream, text: () => chunks.join('') };
  };

  it('writes one JSON object per line when the destination is not a terminal', () => {
    const out = capture(false);
    createLogger('info', out.stream).info({ zone: 'z1' }, 'upgrade done');
    const line = JSON.parse(out.text());
    expect(line).toMatchObject({ level: 30, msg: 'upgrade done', zone: 'z1' });
  });

  it('writes pretty lines (time, level, message, fields) at a terminal, secrets still redacted', () => {
    const out = capture(true);
    createLogger('info', out.stream).info({ zone: 'z1', password: 'hunter2' }, 'upgrade done');
    const text = out.text().replace(/\u001b\[\d+m/g, '');
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: .*upgrade done/);
    expect(text).toContain('zone: "z1"');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('[REDACTED]');
  });
});
