// Multipart parser findings: MULTIPART_PART_HEADERS (part name → header lines), the strictness
// flags (MULTIPART_STRICT_ERROR and its parts) and MULTIPART_FILENAME / MULTIPART_NAME.
// Example: SecRule MULTIPART_STRICT_ERROR "!@eq 0" "id:1,phase:2,deny"
import type { VariableDef } from '../types.ts';
import { collection, scalar } from './define.ts';

export const MULTIPART_FLAGS = [
  'MULTIPART_STRICT_ERROR',
  'MULTIPART_UNMATCHED_BOUNDARY',
  'MULTIPART_BOUNDARY_QUOTED',
  'MULTIPART_BOUNDARY_WHITESPACE',
  'MULTIPART_DATA_BEFORE',
  'MULTIPART_DATA_AFTER',
  'MULTIPART_HEADER_FOLDING',
  'MULTIPART_LF_LINE',
  'MULTIPART_CRLF_LF_LINES',
  'MULTIPART_MISSING_SEMICOLON',
  'MULTIPART_INVALID_QUOTING',
  'MULTIPART_INVALID_PART',
  'MULTIPART_INVALID_HEADER_FOLDING',
  'MULTIPART_FILE_LIMIT_EXCEEDED',
] as const;

export const MULTIPART_PART_HEADERS = collection('MULTIPART_PART_HEADERS', (tx) => tx.multipartPartHeaders);
export const MULTIPART_FILENAME = scalar('MULTIPART_FILENAME', (tx) => tx.multipartFilename);
export const MULTIPART_NAME = scalar('MULTIPART_NAME', (tx) => tx.multipartName);

export const multipartFlagVariables: VariableDef[] = MULTIPART_FLAGS.map((flag) =>
  scalar(flag, (tx) => String(tx.multipartFlags.get(flag) ?? 0)),
);
