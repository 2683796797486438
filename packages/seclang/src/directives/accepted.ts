// Directives accepted without effect, each with the reason: they configure logging, storage or
// response processing that this request-side, in-memory engine does not have.
import type { DirectiveDef } from './types.ts';

const REASONS: Record<string, string> = {
  SecComponentSignature: 'informational only',
  SecPcreMatchLimit:
    'replaced by the linear guarantee: every regex runs in time linear in its input (RE2 or V8, regex/re2.ts and regex/linear.ts), so none is cut short and none fails open',
  SecPcreMatchLimitRecursion: 'as SecPcreMatchLimit (neither linear engine recurses)',
  SecUnicodeMapFile: 'urlDecodeUni keeps the low byte of %uHHHH and folds full-width ASCII',
  SecRequestBodyInMemoryLimit: 'bodies are always held in memory, within SecRequestBodyLimit',
  SecResponseBodyAccess: 'response phases are not run',
  SecResponseBodyMimeType: 'response phases are not run',
  SecResponseBodyLimit: 'response phases are not run',
  SecResponseBodyLimitAction: 'response phases are not run',
  SecTmpDir: 'nothing is written to disk',
  SecDataDir: 'persistent collections are kept in memory',
  SecUploadDir: 'uploads are not stored',
  SecUploadKeepFiles: 'uploads are not stored',
  SecUploadFileMode: 'uploads are not stored',
  SecTmpSaveUploadedFiles: 'uploads are not stored',
  SecAuditEngine: 'matches are returned by evaluate(), there is no audit log',
  SecAuditLog: 'no audit log',
  SecAuditLogParts: 'no audit log',
  SecAuditLogRelevantStatus: 'no audit log',
  SecAuditLogType: 'no audit log',
  SecAuditLogFormat: 'no audit log',
  SecAuditLogStorageDir: 'no audit log',
  SecDebugLog: 'no debug log',
  SecDebugLogLevel: 'no debug log',
  SecStatusEngine: 'no status reporting',
  SecCookieFormat: 'cookies are parsed one way (version 0)',
  SecServerSignature: 'the engine does not write response headers',
};

export const acceptedDirectives: DirectiveDef[] = Object.keys(REASONS).map((name) => ({
  name,
  apply: () => {},
}));
