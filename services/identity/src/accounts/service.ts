import {
  badRequest,
  CairnError,
  dummyHash,
  generateToken,
  hashPassword,
  hashToken,
  newId,
  SignInThrottle,
  verifyPassword,
} from '@cairn/kit';
import type { IdentityDeps } from '../deps.ts';
import { findAccountByEmail, findAccountByUserId, insertAccount } from '../store/accounts.ts';
import {
  type BrowserSession,
  findLiveBrowserSession,
  insertBrowserSession,
  revokeBrowserSession,
} from '../store/browser-sessions.ts';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
export const SESSION_DAYS = 14;
/** Throttle: this many failures in the window lock an email (or an address) until the window has passed. */
export const THROTTLE = { windowMs: 15 * 60_000, perEmail: 5, perIp: 50 };
const throttle = new SignInThrottle('sign_in_failures', THROTTLE);

export interface Person {
  userId: number;
  email: string;
  displayName: string;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function signUp(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  input: { email: string; displayName: string; password: string },
): Promise<Person> {
  const email = normalizeEmail(input.email);
  const displayName = input.displayName.trim();
  if (!EMAIL.test(email)) throw badRequest('Enter a valid email address', { parameter: 'email' });
  if (displayName === '' || displayName.length > 100 || /\p{Cc}/u.test(displayName)) {
    throw badRequest('Enter a name of 1 to 100 characters', { parameter: 'display_name' });
  }
  if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX) {
    throw badRequest(`Choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, {
      parameter: 'password',
    });
  }
  const local = email.split('@')[0]!;
  if (local.length >= 4 && input.password.toLowerCase().includes(local)) {
    throw badRequest('Choose a password that does not contain your email address', { parameter: 'password' });
  }
  const passwordHash = await hashPassword(input.password);
  const userId = await deps.db.transaction((tx) =>
    insertAccount(tx, { email, displayName, passwordHash, createdAt: deps.clock.now() }),
  );
  if (userId === undefined) {
    throw new CairnError(409, 'email_taken', 'An account with this email already exists; sign in instead', {
      location: { parameter: 'email' },
    });
  }
  return { userId, email, displayName };
}

/** Checks a password, throttling failures per email and per address; 401 on a wrong email or password. */
export async function signIn(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  input: { email: string; password: string; ip: string },
): Promise<Person> {
  const email = normalizeEmail(input.email);
  await throttle.check(deps.db, deps.clock, email, input.ip);
  const account = await findAccountByEmail(deps.db, email);
  let ok = false;
  if (account) ok = await verifyPassword(account.passwordHash, input.password);
  else await verifyPassword(await dummyHash(), input.password); // same time as a known email
  if (!account || !ok) {
    await throttle.recordFailure(deps.db, deps.clock, email, input.ip);
    throw new CairnError(401, 'bad_credentials', 'Wrong email or password');
  }
  await throttle.clear(deps.db, email);
  return { userId: account.userId, email: account.email, displayName: account.displayName };
}

/** A browser session: the cookie value is returned; only its hash is stored. */
export async function openBrowserSession(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  userId: number,
  editor: { appId: string; accessTokenId: string } | null = null,
): Promise<{ cookie: string; session: BrowserSession }> {
  const cookie = generateToken('browserSession');
  const now = deps.clock.now();
  const session: BrowserSession = {
    id: newId(),
    userId,
    appId: editor?.appId ?? null,
    accessTokenId: editor?.accessTokenId ?? null,
    expiresAt: new Date(now.getTime() + SESSION_DAYS * 86_400_000),
  };
  await insertBrowserSession(deps.db, { ...session, createdAt: now }, hashToken(cookie));
  return { cookie, session };
}

export async function personOfSession(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  cookie: string | undefined,
): Promise<(Person & { session: BrowserSession }) | undefined> {
  if (!cookie || !/^bs_[A-Za-z0-9_-]{43}$/.test(cookie)) return undefined;
  const session = await findLiveBrowserSession(deps.db, hashToken(cookie), deps.clock.now());
  if (!session) return undefined;
  const account = await findAccountByUserId(deps.db, session.userId);
  return (
    account && { userId: account.userId, email: account.email, displayName: account.displayName, session }
  );
}

export async function closeBrowserSession(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  cookie: string,
): Promise<void> {
  await revokeBrowserSession(deps.db, hashToken(cookie), deps.clock.now());
}
