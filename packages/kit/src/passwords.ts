import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (OWASP's minimum: m=19 MiB, t=2, p=1). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this keeps a sign-in for an unknown email as slow as one for a known email.
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hash('not a real password, only for timing');
  return dummy;
}
