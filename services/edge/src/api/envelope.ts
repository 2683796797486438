import type { CairnError } from '@cairn/kit';
import type { EdgeErrorItem } from './errors.ts';
import type { JsonSchema } from './schema.ts';

/**
 * The v4 envelope: `{result, success, errors, messages}`, plus `result_info` on lists. Errors carry
 * `{code, message, source?: {pointer}}`.
 */
export interface ResultInfo {
  page?: number;
  per_page?: number;
  count: number;
  total_count?: number;
  total_pages?: number;
  cursor?: string;
}

export interface Message {
  code: number;
  message: string;
}

/** What a handler returns for a list, a result with messages, or 204. */
export class Reply {
  constructor(
    readonly result: unknown,
    readonly resultInfo?: ResultInfo,
    readonly messages: Message[] = [],
    readonly status = 200,
  ) {}
}

export const NO_CONTENT = new Reply(null, undefined, [], 204);

export function envelopeOf(value: unknown) {
  const reply = value instanceof Reply ? value : new Reply(value);
  const body: Record<string, unknown> = {
    result: reply.result,
    success: true,
    errors: [],
    messages: reply.messages,
  };
  if (reply.resultInfo) body.result_info = reply.resultInfo;
  return { status: reply.status, body };
}

export function edgeErrorShape(error: CairnError) {
  const code =
    typeof error.details.edgeCode === 'number' ? error.details.edgeCode : defaultCode(error.status);
  const item: EdgeErrorItem = { code, message: error.message };
  if (error.location?.pointer !== undefined) item.source = { pointer: error.location.pointer };
  else if (error.location?.parameter !== undefined) item.source = { parameter: error.location.parameter };
  const more = Array.isArray(error.details.more) ? (error.details.more as EdgeErrorItem[]) : [];
  return { result: null, success: false, errors: [item, ...more], messages: [] };
}

function defaultCode(status: number): number {
  if (status === 401 || status === 403) return 10000;
  if (status === 404) return 7000;
  if (status === 405) return 10405;
  if (status >= 500) return 10001;
  return 10400;
}

const messageSchema: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'integer' },
    message: { type: 'string' },
    source: {
      type: 'object',
      properties: { pointer: { type: 'string' }, parameter: { type: 'string' } },
      additionalProperties: false,
    },
  },
  required: ['code', 'message'],
  additionalProperties: false,
};

export const resultInfoSchema: JsonSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer' },
    per_page: { type: 'integer' },
    count: { type: 'integer' },
    total_count: { type: 'integer' },
    total_pages: { type: 'integer' },
    cursor: { type: 'string' },
  },
  required: ['count'],
  additionalProperties: false,
};

export function envelopeSchema(result: JsonSchema, list: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    result,
    success: { type: 'boolean', const: true },
    errors: { type: 'array', items: messageSchema, maxItems: 0 },
    messages: { type: 'array', items: messageSchema },
  };
  if (list) properties.result_info = resultInfoSchema;
  return {
    type: 'object',
    properties,
    required: ['result', 'success', 'errors', 'messages', ...(list ? ['result_info'] : [])],
    additionalProperties: false,
  };
}

export const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  description: 'A failure: result null, success false, at least one error',
  properties: {
    result: { type: 'null' },
    success: { type: 'boolean', const: false },
    errors: { type: 'array', items: messageSchema, minItems: 1 },
    messages: { type: 'array', items: messageSchema },
  },
  required: ['result', 'success', 'errors', 'messages'],
  additionalProperties: false,
};
