// Reads the CRS anomaly-scoring outcome from TX after the request phases: the inbound score
// (the sum of the per-paranoia-level scores up to the configured level, as rules 949060–949063
// compute it) and the per-category scores.

import type { Transaction } from './transaction.ts';

export interface Scores {
  anomalyScore: number;
  paranoiaLevel: number;
  byParanoiaLevel: [number, number, number, number];
  byCategory: Record<string, number>;
}

const CATEGORIES = [
  'sql_injection',
  'xss',
  'rfi',
  'lfi',
  'rce',
  'php_injection',
  'http_violation',
  'session_fixation',
];

function num(tx: Transaction, name: string): number {
  const n = Number.parseInt(tx.tx.get(name) ?? '0', 10);
  return Number.isNaN(n) ? 0 : n;
}

export function readScores(tx: Transaction): Scores {
  const paranoiaLevel = num(tx, 'paranoia_level') || 1;
  const byParanoiaLevel: [number, number, number, number] = [
    num(tx, 'anomaly_score_pl1'),
    num(tx, 'anomaly_score_pl2'),
    num(tx, 'anomaly_score_pl3'),
    num(tx, 'anomaly_score_pl4'),
  ];
  let anomalyScore = 0;
  for (let pl = 1; pl <= Math.min(paranoiaLevel, 4); pl++) anomalyScore += byParanoiaLevel[pl - 1]!;
  const byCategory: Record<string, number> = {};
  for (const c of CATEGORIES) {
    const score = num(tx, `${c}_score`);
    if (score > 0) byCategory[c] = score;
  }
  return { anomalyScore, paranoiaLevel, byParanoiaLevel, byCategory };
}
