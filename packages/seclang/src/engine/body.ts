// Between phases 1 and 2: applies the body limits, runs the selected body processor and fills
// the body variables. An oversized body is rejected (413) or cut to the limit (ProcessPartial);
// the engine never holds more than the limit in parsed form.

import { getBodyParser } from '../body-parsers/index.ts';
import type { Transaction } from './transaction.ts';

export function processRequestBody(tx: Transaction): void {
  const raw = tx.data.body;
  const config = tx.ruleset.config;
  if (raw === undefined || raw.length === 0 || !tx.requestBodyAccess) {
    tx.bodyArgsReady();
    return;
  }
  const processor = tx.bodyProcessor;
  const limit =
    processor === 'MULTIPART'
      ? config.requestBodyLimit
      : Math.min(config.requestBodyLimit, config.requestBodyNoFilesLimit);
  let body = raw;
  if (raw.length > limit) {
    tx.inboundDataError = 1;
    if (config.requestBodyLimitAction === 'Reject') {
      const intervention = { action: 'deny' as const, status: 413, ruleId: 0 };
      if (tx.ruleEngine === 'On') {
        tx.intervention = intervention;
        return;
      }
      tx.detectedIntervention ??= intervention;
    }
    body = raw.slice(0, limit);
  }
  const parser = processor ? getBodyParser(processor) : undefined;
  if (!parser || processor === 'URLENCODED' || tx.forceRequestBodyVariable) tx.requestBody = body;
  if (parser) {
    const result = parser.parse(body, tx.data.headers.byKey('content-type')[0]?.value ?? '', config);
    if (result.args) tx.argsPost = result.args;
    if (result.error) {
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
  }
  tx.bodyArgsReady();
}
