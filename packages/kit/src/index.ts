export { type App, type AppDeps, createApp, type ServiceModule } from './app.ts';
export {
  type AuthContext,
  type AuthenticateHook,
  authenticate,
  bearerToken,
  bearerTokenOf,
  bearerUnauthorized,
  type CredentialKind,
  type ResolveAuthorization,
  type ResolveBearer,
} from './auth.ts';
export { type Clock, createFakeClock, type FakeClock, systemClock } from './clock.ts';
export { type Config, ConfigError, loadConfig } from './config.ts';
export { copyArrayField, copyField } from './db/copy.ts';
export { DataDirInUseError, lockHolder } from './db/lockfile.ts';
export { type Migration, migrate, migrationsDigest, migrationsFromDir } from './db/migrations.ts';
export { openDb } from './db/open.ts';
export { openPglite, pgliteOptions, wrapPglite } from './db/pglite.ts';
export { openPostgres } from './db/postgres.ts';
export { createTestDb, type TestDb, testDatabaseUrl } from './db/test-db.ts';
export { transactionAsDb } from './db/transaction-as-db.ts';
export type { Db, Engine, Queryable, QueryOptions, QueryResult } from './db/types.ts';
export { type ErrorShape, edgeShape, errorHandler, messageShape, oauthShape } from './error-shapes.ts';
export * from './errors.ts';
export { escapeHtml, Html, html, page } from './html.ts';
export { parseJsonBody } from './json-body.ts';
export { createLogger, type Logger, loggerOptions, redactUrl } from './log.ts';
export { type IndexedRoute, RouteIndex } from './method-not-allowed.ts';
export { createMetrics, type Metrics } from './metrics.ts';
export { pageHeaders } from './page-headers.ts';
export { dummyHash, hashPassword, verifyPassword } from './passwords.ts';
export { acceptFormBodies, parseQueryString } from './request-text.ts';
export { SERVING_V8_FLAGS, servingFlags } from './serving-flags.ts';
export { SignInThrottle, type ThrottleLimits } from './sign-in-throttle.ts';
export {
  findUnstorableText,
  printableName,
  rejectUnstorableText,
  type TextSource,
  textProblem,
  type UnstorableText,
  unstorableTextError,
} from './storable-text.ts';
export {
  generateToken,
  hashToken,
  newId,
  TOKEN_PREFIXES,
  type TokenKind,
  tokenHint,
  tokenKindOf,
} from './tokens.ts';
export {
  decodeUrlEncodedComponent,
  type ParsedUrlEncoded,
  parseUrlEncoded,
  type UrlEncodedProblem,
  type UrlEncodedValues,
} from './url-encoded.ts';
export { decodeUtf8, firstInvalidUtf8Byte } from './utf8.ts';
export { API_VERSION, requireVersionHeader } from './version-header.ts';
