// Response-side variables and ENV. This engine inspects requests only (phases 1 and 2), so
// these exist for loading the response rule files and are always empty.
// Example: SecRule RESPONSE_BODY "@rx error" "id:1,phase:4"
import { empty } from './define.ts';

export const responseVariables = [
  'RESPONSE_BODY',
  'RESPONSE_STATUS',
  'RESPONSE_HEADERS',
  'RESPONSE_HEADERS_NAMES',
  'RESPONSE_CONTENT_TYPE',
  'RESPONSE_CONTENT_LENGTH',
  'RESPONSE_PROTOCOL',
  'ENV',
  'WEBSERVER_ERROR_LOG',
].map(empty);
