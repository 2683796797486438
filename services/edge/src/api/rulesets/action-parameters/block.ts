import { int, obj, oneOf, optional, str } from '../../schema.ts';

/** `block`: an optional custom response (status 400–499, content, content type). */
export const blockParameters = obj(
  {
    response: optional(
      obj({
        status_code: int(400, 499, 'HTTP status of the block response'),
        content: str({ min: 1, max: 10_240, description: 'Body of the block response' }),
        content_type: oneOf(['text/html', 'text/plain', 'application/json', 'application/xml']),
      }),
    ),
  },
  { description: 'block: optional custom response' },
);
