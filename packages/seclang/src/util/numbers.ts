// atoi()-like integer parsing, as ModSecurity's numeric operators and setvar arithmetic read values.

export function toInt(s: string): number {
  const n = Number.parseInt(s, 10);
  return Number.isNaN(n) ? 0 : n;
}
