// Request-line variables: REQUEST_METHOD, REQUEST_URI, REQUEST_URI_RAW, REQUEST_FILENAME,
// REQUEST_BASENAME, REQUEST_LINE, REQUEST_PROTOCOL, QUERY_STRING, PATH_INFO.
// Example: SecRule REQUEST_METHOD "!@within %{tx.allowed_methods}" "id:1"
import { scalar } from './define.ts';

export const REQUEST_METHOD = scalar('REQUEST_METHOD', (tx) => tx.data.method);
export const REQUEST_URI = scalar('REQUEST_URI', (tx) => tx.data.uri);
export const REQUEST_URI_RAW = scalar('REQUEST_URI_RAW', (tx) => tx.data.uriRaw);
export const REQUEST_FILENAME = scalar('REQUEST_FILENAME', (tx) => tx.data.filename);
export const REQUEST_BASENAME = scalar('REQUEST_BASENAME', (tx) => tx.data.basename);
export const REQUEST_LINE = scalar('REQUEST_LINE', (tx) => tx.data.requestLine);
export const REQUEST_PROTOCOL = scalar('REQUEST_PROTOCOL', (tx) => tx.data.protocol);
export const QUERY_STRING = scalar('QUERY_STRING', (tx) => tx.data.queryString);
export const PATH_INFO = scalar('PATH_INFO', () => '');
