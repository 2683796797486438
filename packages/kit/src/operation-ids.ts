/**
 * Names for the generated clients: an operation without an explicit `operationId` gets one made from its
 * path's literal segments (the edge API's `/client/v4` prefix left out) and what its method does there —
 * `GET /places/search` → `placesSearch`, `POST /users/managed-user/create` → `usersManagedUserCreate`,
 * `GET /client/v4/zones` → `zonesList`, `GET /client/v4/zones/{zone_id}` → `zonesGet`. The name depends only
 * on the path and the methods served at it, so it stays the same when other routes are added.
 */

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const API_PREFIX = /^\/client\/v4(?=\/)/;

function camelWords(path: string): string[] {
  return path
    .replace(API_PREFIX, '')
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith('{'))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== '');
}

function joinCamel(words: readonly string[]): string {
  return words
    .map((word, i) => (i === 0 ? word[0]!.toLowerCase() : word[0]!.toUpperCase()) + word.slice(1))
    .join('');
}

/**
 * What a method does at a path, as the last word of its name ('' when the path already says it). A path
 * without a trailing parameter that also takes POST is a collection: PUT, PATCH and DELETE there act on
 * many items at once (`zonesFiltersBulkDelete`).
 */
function methodWord(method: string, path: string, methods: ReadonlySet<string>): string {
  const onItem = path.endsWith('}');
  const bulk = !onItem && methods.has('post') ? 'Bulk' : '';
  switch (method) {
    case 'get':
      if (onItem) return 'Get';
      return methods.has('post') ? 'List' : '';
    case 'post':
      return methods.size > 1 ? 'Create' : '';
    case 'put':
      return `${bulk}Update`;
    case 'patch':
      return `${bulk}Edit`;
    case 'delete':
      return `${bulk}Delete`;
    default:
      return method[0]!.toUpperCase() + method.slice(1);
  }
}

export function defaultOperationId(method: string, path: string, methods: ReadonlySet<string>): string {
  const words = camelWords(path);
  const verb = methodWord(method, path, methods);
  const id = joinCamel(words.length === 0 ? ['root', method] : verb === '' ? words : [...words, verb]);
  // An identifier can't start with a digit (`/2fa` → `get2fa`).
  return /^[0-9]/.test(id) ? `${method}${id}` : id;
}
