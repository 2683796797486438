// @cairn/seclang: a ModSecurity SecLang engine for the OWASP Core Rule Set 3.3.
//
//   const waf = await loadCrs({ paranoiaLevel: 1, inboundThreshold: 5 });
//   const r = waf.evaluate({ method: 'GET', uri: '/?q=1', httpVersion: '1.1', headers: [['Host', 'x']] });
//   r.decision; r.matchedRules; r.anomalyScore;

export {
  findBoundary as findMultipartBoundary,
  parseDisposition as parseMultipartDisposition,
} from './body-parsers/multipart.ts';
export { detectSQLi, type SqliResult } from './detectors/sqli.ts';
export { detectXSS } from './detectors/xss.ts';
export type { EngineConfig } from './engine/config.ts';
export type { GeoLookup, GeoRecord, WafRequest } from './engine/request-data.ts';
export type { MatchedRule } from './engine/transaction.ts';
export { SecLangError } from './errors.ts';
export {
  type BodyLimits,
  CrsNotFoundError,
  DEFAULT_CRS_DIR,
  DEFAULT_SETUP_FILE,
  type LoadCrsOptions,
  loadCrs,
  loadCrsSync,
  loadRules,
} from './loader.ts';
export type { RuleAction, RuleOverrides } from './overrides.ts';
export { LINEAR_REGEX_FLAGS, LinearRegexUnavailableError, linearEngine } from './regex/linear.ts';
export { type Decision, type EvaluationResult, Waf, type WafOptions } from './waf.ts';
