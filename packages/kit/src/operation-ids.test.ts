import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultOperationId } from './operation-ids.ts';

const name = (method: string, path: string, ...others: string[]) =>
  defaultOperationId(method, path, new Set([method, ...others]));

describe('defaultOperationId', () => {
  it('names an operation from its path and what its method does there', () => {
    expect(name('get', '/places/search')).toBe('placesSearch');
    expect(name('post', '/users/managed-user/create')).toBe('usersManagedUserCreate');
    expect(name('get', '/places/{fsq_place_id}')).toBe('placesGet');
    expect(name('get', '/.well-known/oauth-authorization-server')).toBe('wellKnownOauthAuthorizationServer');
    expect(name('get', '/client/v4/zones', 'post')).toBe('zonesList');
    expect(name('post', '/client/v4/zones', 'get')).toBe('zonesCreate');
    expect(name('patch', '/client/v4/zones/{zone_id}', 'get', 'delete')).toBe('zonesEdit');
    expect(name('put', '/client/v4/zones/{zone_id}/url_normalization', 'get')).toBe(
      'zonesUrlNormalizationUpdate',
    );
  });

  it('tells a collection-wide change from one item’s', () => {
    const collection = ['get', 'post', 'put', 'patch', 'delete'];
    expect(name('delete', '/client/v4/zones/{zone_id}/firewall/rules', ...collection)).toBe(
      'zonesFirewallRulesBulkDelete',
    );
    expect(name('delete', '/client/v4/zones/{zone_id}/firewall/rules/{rule_id}', 'get')).toBe(
      'zonesFirewallRulesDelete',
    );
  });

  it('always gives a camelCase identifier, the same for the same input', () => {
    const segment = fc.oneof(
      fc.stringMatching(/^[a-z0-9_.-]{1,12}$/),
      fc.stringMatching(/^[a-z_]{1,8}$/).map((s) => `{${s}}`),
    );
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 6 }),
        fc.constantFrom('get', 'post', 'put', 'patch', 'delete', 'head'),
        fc.subarray(['get', 'post', 'put', 'patch', 'delete']),
        (segments, method, others) => {
          const path = `/${segments.join('/')}`;
          const id = name(method, path, ...others);
          expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
          expect(name(method, path, ...others)).toBe(id);
        },
      ),
    );
  });
});
