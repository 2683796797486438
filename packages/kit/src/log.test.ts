import { describe, expect, it } from 'vitest';
import { redactUrl } from './log.ts';

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
