// Limits applied by `parse`. Each is refused with a clear error, never a stack overflow.

export interface Limits {
  /** Expression length in UTF-8 bytes (firewall rule expressions may be at most 4 KB). */
  readonly maxLength: number;
  /** Nesting depth of parentheses, `not`, function calls and index accesses (wirefilter: 128). */
  readonly maxDepth: number;
  /** Items in one inline list `{…}`. */
  readonly maxListItems: number;
  /** `*` metacharacters in one wildcard pattern (wirefilter's default is unlimited). */
  readonly wildcardStarLimit: number;
  /** Length of one regular expression, in bytes. */
  readonly maxRegexLength: number;
}

export const defaultLimits: Limits = Object.freeze({
  maxLength: 4096,
  maxDepth: 128,
  maxListItems: 1024,
  wildcardStarLimit: Number.POSITIVE_INFINITY,
  maxRegexLength: 1024,
});

export function resolveLimits(overrides?: Partial<Limits>): Limits {
  return overrides ? { ...defaultLimits, ...overrides } : defaultLimits;
}
