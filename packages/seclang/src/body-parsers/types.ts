// What a body processor produces for the transaction.

import type { EntryList } from '../engine/collections/entry-list.ts';
import type { EngineConfig } from '../engine/config.ts';

export interface BodyResult {
  args?: EntryList;
  /** Set when the body could not be parsed (REQBODY_ERROR = 1). */
  error?: string;
  xml?: { root: string; attributes: string[] };
  files?: EntryList;
  filesSizes?: EntryList;
  filesCombinedSize?: number;
  partHeaders?: EntryList;
  flags?: Map<string, number>;
  lastFilename?: string;
  lastName?: string;
  /** Multipart: the parts that are not files passed SecRequestBodyNoFilesLimit (args stop there). */
  noFilesLimitExceeded?: boolean;
}

export interface BodyParser {
  /** REQBODY_PROCESSOR name. */
  readonly name: string;
  /** `priorArgs`: arguments the request already has (its query), which count toward SecArgumentsLimit. */
  parse(body: string, contentType: string, config: EngineConfig, priorArgs?: number): BodyResult;
}

/** UTF-8 text decoded by a parser back to a binary string. */
export function toBinary(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}
