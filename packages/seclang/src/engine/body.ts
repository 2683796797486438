// Between phases 1 and 2: applies the body limits, runs the selected body processor and fills
// the body variables. An oversized body is rejected (413) or cut to the limit (ProcessPartial);
// the engine never holds more than the limit in parsed form.

import { isUtf8 } from 'node:buffer';
import { getBodyParser } from '../body-parsers/index.ts';
import type { Transaction } from './transaction.ts';

/**
 * Multipart fields (everything but file data) past SecRequestBodyNoFilesLimit: rejected (413), or
 * with ProcessPartial inspected up to the limit (the parser read no field past it).
 */
function noFilesLimitExceeded(tx: Transaction): string {
  const limit = tx.ruleset.config.requestBodyNoFilesLimit;
  tx.inboundDataError = 1;
  if (tx.ruleset.config.requestBodyLimitAction === 'Reject') {
    const intervention = { action: 'deny' as const, status: 413, ruleId: 0 };
    if (tx.ruleEngine === 'On') tx.intervention = intervention;
    else tx.detectedIntervention ??= intervention;
  }
  return `Request body excluding files is bigger than the maximum expected (${limit} bytes)`;
}

const NON_ASCII = /[\x80-\xff]/;

/** The body error for the first header value that is not UTF-8 (with requestHeadersUtf8 on). */
function headerUtf8Error(tx: Transaction): string | undefined {
  if (!tx.ruleset.config.requestHeadersUtf8) return undefined;
  for (const { key, value } of tx.data.headers.entries) {
    if (NON_ASCII.test(value) && !isUtf8(Buffer.from(value, 'latin1'))) {
      return `Request header ${key}: invalid bytes in UTF8 string`;
    }
  }
  return undefined;
}

/** Applies the limits and parses the body; returns the message of a limit the body passed. */
export function processRequestBody(tx: Transaction): string | undefined {
  const headerError = headerUtf8Error(tx);
  if (headerError) {
    tx.headerError = headerError;
    tx.bodyError = 1;
    tx.bodyErrorMessage = headerError;
  }
  const raw = tx.data.body;
  const config = tx.ruleset.config;
  if (raw === undefined || raw.length === 0 || !tx.requestBodyAccess) {
    tx.bodyArgsReady();
    return undefined;
  }
  const processor = tx.bodyProcessor;
  const limit =
    processor === 'MULTIPART'
      ? config.requestBodyLimit
      : Math.min(config.requestBodyLimit, config.requestBodyNoFilesLimit);
  let body = raw;
  let exceeded: string | undefined;
  if (raw.length > limit) {
    tx.inboundDataError = 1;
    exceeded = `Request body is bigger than the maximum expected (${limit} bytes)`;
    if (config.requestBodyLimitAction === 'Reject') {
      const intervention = { action: 'deny' as const, status: 413, ruleId: 0 };
      if (tx.ruleEngine === 'On') {
        tx.intervention = intervention;
        return exceeded;
      }
      tx.detectedIntervention ??= intervention;
    }
    body = raw.slice(0, limit);
  }
  const parser = processor ? getBodyParser(processor) : undefined;
  // ModSecurity v3 fills REQUEST_BODY for JSON bodies too (v2 and the CRS tests do not)
  if (!parser || processor === 'URLENCODED' || processor === 'JSON' || tx.forceRequestBodyVariable) {
    tx.requestBody = body;
  }
  if (parser) {
    const contentType = tx.data.headers.byKey('content-type')[0]?.value ?? '';
    const result = parser.parse(body, contentType, config, tx.data.argsGet.entries.length);
    if (result.args) tx.argsPost = result.args;
    if (result.error && !headerError) {
      tx.bodyError = 1;
      tx.bodyErrorMessage = result.error;
    }
    if (result.xml) tx.xml = result.xml;
    if (result.files) tx.files = result.files;
    if (result.filesSizes) tx.filesSizes = result.filesSizes;
    if (result.filesCombinedSize !== undefined) tx.filesCombinedSize = result.filesCombinedSize;
    if (result.partHeaders) tx.multipartPartHeaders = result.partHeaders;
    if (result.flags) tx.multipartFlags = result.flags;
    if (result.lastFilename !== undefined) tx.multipartFilename = result.lastFilename;
    if (result.lastName !== undefined) tx.multipartName = result.lastName;
    if (result.noFilesLimitExceeded) exceeded = noFilesLimitExceeded(tx);
  }
  tx.bodyArgsReady();
  return exceeded;
}
