import type { EditsConfig } from '../config.ts';

/**
 * The trust model (README, "Suggested edits, votes and trust"). A contributor's outcomes are their resolved
 * edits (accepted: correct; rejected by votes or rolled back: incorrect; rejected as stale: not counted) and
 * their votes on resolved edits (agreeing with the final outcome: correct; skips: not counted), a vote worth
 * `voteWeight` of an edit. Accuracy is the Beta-Bernoulli posterior mean with a prior of `priorMean` worth
 * `priorWeight` outcomes, so a newcomer starts at the prior and each outcome moves them a little.
 */
export interface Outcomes {
  editsAccepted: number;
  editsRejected: number;
  editsRolledBack: number;
  votesAgreed: number;
  votesDisagreed: number;
}

export const NO_OUTCOMES: Outcomes = Object.freeze({
  editsAccepted: 0,
  editsRejected: 0,
  editsRolledBack: 0,
  votesAgreed: 0,
  votesDisagreed: 0,
});

export function addOutcomes(a: Outcomes, b: Outcomes): Outcomes {
  return {
    editsAccepted: a.editsAccepted + b.editsAccepted,
    editsRejected: a.editsRejected + b.editsRejected,
    editsRolledBack: a.editsRolledBack + b.editsRolledBack,
    votesAgreed: a.votesAgreed + b.votesAgreed,
    votesDisagreed: a.votesDisagreed + b.votesDisagreed,
  };
}

function evidence(o: Outcomes, config: Readonly<EditsConfig>) {
  const correct = o.editsAccepted + config.voteWeight * o.votesAgreed;
  const incorrect = o.editsRejected + o.editsRolledBack + config.voteWeight * o.votesDisagreed;
  return { correct, total: correct + incorrect };
}

/** Accuracy over all of a contributor's outcomes: (correct + m·w) / (total + w). */
export function overallAccuracy(all: Outcomes, config: Readonly<EditsConfig>): number {
  const { correct, total } = evidence(all, config);
  return (correct + config.priorMean * config.priorWeight) / (total + config.priorWeight);
}

/**
 * Accuracy within one organization. Its prior is the contributor's accuracy everywhere else (outside that
 * organization), so someone new to an organization brings their record, their record there takes over as it
 * grows, and no outcome is counted twice: for a contributor of one organization it equals the overall figure.
 */
export function organizationAccuracy(
  all: Outcomes,
  inOrganization: Outcomes,
  config: Readonly<EditsConfig>,
): number {
  const outside = evidence(all, config);
  const inside = evidence(inOrganization, config);
  const prior =
    (outside.correct - inside.correct + config.priorMean * config.priorWeight) /
    (outside.total - inside.total + config.priorWeight);
  return (inside.correct + prior * config.priorWeight) / (inside.total + config.priorWeight);
}

/**
 * The weight of an author's own approval. At or below the prior mean it is their trust, like any voter's; from
 * there it rises linearly to the accept quorum at `autoApply`, where an edit applies without votes.
 */
export function authorWeight(trust: number, config: Readonly<EditsConfig>): number {
  const ramp = Math.min(1, Math.max(0, (trust - config.priorMean) / (config.autoApply - config.priorMean)));
  const weight = trust + Math.max(0, config.acceptQuorum - trust) * ramp;
  return Math.min(Math.max(weight, trust), Math.max(config.acceptQuorum, trust));
}

/** A voter's weight is their trust within the organization they vote through. */
export const voterWeight = (trust: number): number => trust;

/** Sums are compared with a little slack so that 0.5 + 0.5 + 0.5 reaches 1.5. */
const EPSILON = 1e-9;

export type Decision = 'accept' | 'reject' | undefined;

/**
 * Accept when approvals (the author's weight included) reach the accept quorum, reject when rejections reach
 * the reject quorum; when both do, the side of the vote just cast wins.
 */
export function decide(
  approveWeight: number,
  rejectWeight: number,
  config: Readonly<EditsConfig>,
  lastVote?: 'approve' | 'reject' | 'skip',
): Decision {
  const accept = approveWeight + EPSILON >= config.acceptQuorum;
  const reject = rejectWeight + EPSILON >= config.rejectQuorum;
  if (accept && reject) return lastVote === 'reject' ? 'reject' : 'accept';
  if (accept) return 'accept';
  if (reject) return 'reject';
  return undefined;
}
