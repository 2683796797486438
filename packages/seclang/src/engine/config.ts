// Engine settings set by SecLang directives (SecRuleEngine, body limits…) and the loader options.
// Defaults follow ModSecurity's recommended configuration.

export type RuleEngineMode = 'On' | 'Off' | 'DetectionOnly';

export interface EngineConfig {
  ruleEngine: RuleEngineMode;
  requestBodyAccess: boolean;
  /** Bytes of request body accepted in total (SecRequestBodyLimit). */
  requestBodyLimit: number;
  /** Bytes of request body accepted, not counting file parts (SecRequestBodyNoFilesLimit). */
  requestBodyNoFilesLimit: number;
  /** What happens past the limit: reject the request, or inspect the first part only. */
  requestBodyLimitAction: 'Reject' | 'ProcessPartial';
  /** Most arguments parsed from a body (SecArgumentsLimit); past it REQBODY_ERROR is set. */
  argumentsLimit: number;
  /** Deepest JSON nesting accepted (SecRequestBodyJsonDepthLimit). */
  jsonDepthLimit: number;
  /** Deepest XML nesting and most XML nodes accepted. */
  xmlDepthLimit: number;
  xmlNodeLimit: number;
  argumentSeparator: string;
  collectionTimeout: number;
  /**
   * A request header value that is not UTF-8 is a body error (REQBODY_ERROR, refused by rule 200002),
   * as invalid UTF-8 in a JSON body is. Not a ModSecurity setting: the edge proxy turns it on.
   */
  requestHeadersUtf8: boolean;
}

export function defaultEngineConfig(): EngineConfig {
  return {
    ruleEngine: 'On',
    requestBodyAccess: true,
    requestBodyLimit: 13_107_200,
    requestBodyNoFilesLimit: 131_072,
    requestBodyLimitAction: 'Reject',
    argumentsLimit: 1000,
    jsonDepthLimit: 512,
    xmlDepthLimit: 256,
    xmlNodeLimit: 100_000,
    argumentSeparator: '&',
    collectionTimeout: 600,
    requestHeadersUtf8: false,
  };
}
