import type { Queryable } from '@cairn/kit';
import type { EditsConfig } from '../config.ts';
import { outcomesOf } from '../store/outcomes.ts';
import {
  addOutcomes,
  NO_OUTCOMES,
  type Outcomes,
  organizationAccuracy,
  overallAccuracy,
} from './accuracy.ts';

/** A contributor's record: overall, and per organization they contributed through. */
export interface ContributorRecord {
  all: Outcomes;
  byOrganization: Map<string, Outcomes>;
}

export class TrustTable {
  constructor(
    private readonly records: Map<string, ContributorRecord>,
    private readonly config: Readonly<EditsConfig>,
  ) {}

  record(contributor: string): ContributorRecord {
    return this.records.get(contributor) ?? { all: NO_OUTCOMES, byOrganization: new Map() };
  }

  overall(contributor: string): number {
    return overallAccuracy(this.record(contributor).all, this.config);
  }

  /** The trust that weighs a contributor's edits and votes made through `organizationId`. */
  within(contributor: string, organizationId: string): number {
    const r = this.record(contributor);
    return organizationAccuracy(r.all, r.byOrganization.get(organizationId) ?? NO_OUTCOMES, this.config);
  }
}

/** Loads the records of the given contributors in one query. */
export async function loadTrust(
  db: Queryable,
  config: Readonly<EditsConfig>,
  contributors: Iterable<string>,
): Promise<TrustTable> {
  const records = new Map<string, ContributorRecord>();
  for (const row of await outcomesOf(db, [...new Set(contributors)])) {
    const outcomes: Outcomes = {
      editsAccepted: row.edits_accepted,
      editsRejected: row.edits_rejected,
      editsRolledBack: row.edits_rolled_back,
      votesAgreed: row.votes_agreed,
      votesDisagreed: row.votes_disagreed,
    };
    const r = records.get(row.contributor) ?? {
      all: NO_OUTCOMES,
      byOrganization: new Map<string, Outcomes>(),
    };
    r.all = addOutcomes(r.all, outcomes);
    r.byOrganization.set(
      row.organization_id,
      addOutcomes(r.byOrganization.get(row.organization_id) ?? NO_OUTCOMES, outcomes),
    );
    records.set(row.contributor, r);
  }
  return new TrustTable(records, config);
}
