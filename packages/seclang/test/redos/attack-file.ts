// Where the ReDoS suite's attacks are kept (generate-attacks.ts writes it) and their shape.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RedosEntry {
  /** Rule ids (chain starters) that run this regex. */
  rules: number[];
  source: string;
  flags: string;
  /** recheck's verdict: safe, vulnerable or unknown. */
  status: string;
  complexity?: string;
  /** The attack: each pump's prefix, then the pump repeated; after all pumps, the suffix. */
  pumps?: Array<{ prefix: string; pump: string }>;
  suffix?: string;
}

export const ATTACKS_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../testdata/redos-attacks.json',
);
