import type { Clock, Db } from '@cairn/kit';
import type { BearerResolver } from './auth/resolve-bearer.ts';

/** What identity's service functions need: storage, time, and the resolver whose cache they invalidate. */
export interface IdentityDeps {
  db: Db;
  clock: Clock;
  resolver: BearerResolver;
}
