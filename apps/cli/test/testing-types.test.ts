import { expect, it } from 'vitest';
import type {
  Cairn,
  Fixtures,
  SessionToken,
  SessionTokenInput,
  StartCairnOptions,
  UserAccessToken,
  UserAccessTokenInput,
} from '../src/testing.ts';
import { startCairn } from '../src/testing.ts';
import type * as Declared from '../types/testing.d.ts';

// The hand-written declarations the package ships (types/testing.d.ts) must describe the sources: tsc
// (npm run typecheck) fails here when they drift apart.
const declaredStart: typeof Declared.startCairn = startCairn;
const options: StartCairnOptions = {} as Declared.StartCairnOptions;
const declaredOptions: Declared.StartCairnOptions = {} as StartCairnOptions;
const cairn: Declared.Cairn = {} as Cairn;
const fixtures: Fixtures = {} as Declared.Fixtures;
const declaredFixtures: Declared.Fixtures = {} as Fixtures;
const grant: UserAccessTokenInput = {} as Declared.UserAccessTokenInput;
const declaredGrant: Declared.UserAccessTokenInput = {} as UserAccessTokenInput;
const token: Declared.UserAccessToken = {} as UserAccessToken;
const session: Declared.SessionToken = {} as SessionToken;
const sessionInput: SessionTokenInput = {} as Declared.SessionTokenInput;

it('the declarations of cairn/testing match the sources (checked by tsc)', () => {
  expect([declaredStart, options, declaredOptions, cairn, fixtures, declaredFixtures]).toHaveLength(6);
  expect([grant, declaredGrant, token, session, sessionInput]).toHaveLength(5);
});
