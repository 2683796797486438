// URLENCODED: `application/x-www-form-urlencoded` bodies, parsed as the query string is.
import { EntryList } from '../engine/collections/entry-list.ts';
import { parseQuery } from '../engine/request-data.ts';
import type { BodyParser } from './types.ts';

export const urlencoded: BodyParser = {
  name: 'URLENCODED',
  parse(body, _contentType, config) {
    const args = parseQuery(body, config.argumentSeparator, new EntryList());
    if (args.entries.length > config.argumentsLimit) {
      return {
        args: new EntryList(args.entries.slice(0, config.argumentsLimit)),
        error: `arguments limit of ${config.argumentsLimit} exceeded`,
      };
    }
    return { args };
  },
};
