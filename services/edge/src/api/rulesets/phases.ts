/** Every phase name the Rulesets API knows (reference §1.4); Cairn stores and runs two of them. */
export const PHASES = [
  'ddos_l4',
  'ddos_l7',
  'http_config_settings',
  'http_custom_errors',
  'http_log_custom_fields',
  'http_ratelimit',
  'http_request_cache_settings',
  'http_request_dynamic_redirect',
  'http_request_firewall_custom',
  'http_request_firewall_managed',
  'http_request_late_transform',
  'http_request_origin',
  'http_request_redirect',
  'http_request_sanitize',
  'http_request_sbfm',
  'http_request_select_configuration',
  'http_request_transform',
  'http_response_cache_settings',
  'http_response_compression',
  'http_response_firewall_managed',
  'http_response_headers_transform',
  'magic_transit',
  'magic_transit_ids_managed',
  'magic_transit_managed',
  'magic_transit_ratelimit',
] as const;
export type Phase = (typeof PHASES)[number];

export const SUPPORTED_PHASES = ['http_request_firewall_custom', 'http_request_firewall_managed'] as const;
export type SupportedPhase = (typeof SUPPORTED_PHASES)[number];

export const isPhase = (value: string): value is Phase => (PHASES as readonly string[]).includes(value);
export const isSupportedPhase = (value: string): value is SupportedPhase =>
  (SUPPORTED_PHASES as readonly string[]).includes(value);

/** Request phases in execution order (reference §1.4); a skip rule may only skip later phases. */
export const REQUEST_PHASE_ORDER: readonly Phase[] = [
  'http_request_sanitize',
  'http_request_dynamic_redirect',
  'http_request_transform',
  'http_config_settings',
  'http_request_origin',
  'ddos_l7',
  'http_request_firewall_custom',
  'http_ratelimit',
  'http_request_firewall_managed',
  'http_request_sbfm',
  'http_request_late_transform',
  'http_request_cache_settings',
];

/** Phases a skip rule of `phase` may name in `phases` (custom rules: the real service's three). */
export const SKIPPABLE_PHASES: Record<SupportedPhase, readonly Phase[]> = {
  http_request_firewall_custom: ['http_ratelimit', 'http_request_firewall_managed', 'http_request_sbfm'],
  http_request_firewall_managed: ['http_request_sbfm'],
};

const CHALLENGES = ['challenge', 'js_challenge', 'managed_challenge'] as const;

/** Rule actions per phase. */
export const PHASE_ACTIONS: Record<SupportedPhase, readonly string[]> = {
  http_request_firewall_custom: ['block', ...CHALLENGES, 'log', 'skip'],
  http_request_firewall_managed: ['execute', 'skip', 'block', ...CHALLENGES, 'log'],
};

/** Actions an `execute` override may set on managed rules. */
export const OVERRIDE_ACTIONS = ['block', ...CHALLENGES, 'log'] as const;

/** Legacy products a skip rule of the custom phase may bypass (case-sensitive). */
export const SKIP_PRODUCTS = [
  'zoneLockdown',
  'uaBlock',
  'bic',
  'hot',
  'securityLevel',
  'rateLimit',
  'waf',
] as const;
