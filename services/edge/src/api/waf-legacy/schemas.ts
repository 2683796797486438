const str = { type: 'string' };

export const packageSchema = {
  type: 'object',
  properties: {
    id: str,
    name: str,
    description: str,
    detection_mode: { type: 'string', enum: ['traditional', 'anomaly'] },
    zone_id: str,
    status: str,
    sensitivity: { type: 'string', enum: ['high', 'medium', 'low', 'off'] },
    action_mode: { type: 'string', enum: ['simulate', 'block', 'challenge'] },
  },
  required: ['id', 'name', 'description', 'detection_mode', 'zone_id'],
  additionalProperties: false,
};

export const groupSchema = {
  type: 'object',
  properties: {
    id: str,
    name: str,
    description: str,
    rules_count: { type: 'integer' },
    modified_rules_count: { type: 'integer' },
    package_id: str,
    mode: { type: 'string', enum: ['on', 'off'] },
    allowed_modes: { type: 'array', items: str },
  },
  required: [
    'id',
    'name',
    'description',
    'rules_count',
    'modified_rules_count',
    'package_id',
    'mode',
    'allowed_modes',
  ],
  additionalProperties: false,
};

export const ruleSchema = {
  type: 'object',
  properties: {
    id: str,
    description: str,
    priority: str,
    group: {
      type: 'object',
      properties: { id: str, name: str },
      required: ['id', 'name'],
      additionalProperties: false,
    },
    package_id: str,
    allowed_modes: { type: 'array', items: str },
    mode: str,
    default_mode: str,
  },
  required: ['id', 'description', 'priority', 'group', 'package_id', 'allowed_modes', 'mode'],
  additionalProperties: false,
};

const modeMap = { type: 'object', additionalProperties: str };

export const overrideSchema = {
  type: 'object',
  properties: {
    id: str,
    description: { type: ['string', 'null'] },
    urls: { type: 'array', items: str },
    priority: { type: 'integer' },
    paused: { type: 'boolean' },
    groups: modeMap,
    rules: modeMap,
    rewrite_action: modeMap,
  },
  required: ['id', 'urls', 'priority', 'paused', 'groups', 'rules', 'rewrite_action'],
  additionalProperties: false,
};
