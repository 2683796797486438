import { stableId } from '../ids.ts';

/** The four plans, cheapest first; features are gated by `atLeast(zone.plan, 'pro')`. */
export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

const LABELS: Record<PlanName, { name: string; price: number; short: string }> = {
  free: { name: 'Free Website', price: 0, short: 'Free' },
  pro: { name: 'Pro Website', price: 20, short: 'Pro' },
  business: { name: 'Business Website', price: 200, short: 'Business' },
  enterprise: { name: 'Enterprise Website', price: 5000, short: 'Enterprise' },
};

// The real Free plan id; the others are derived (the reference does not name them).
const PLAN_IDS: Record<PlanName, string> = {
  free: '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  pro: stableId('plan:pro'),
  business: stableId('plan:business'),
  enterprise: stableId('plan:enterprise'),
};

/** The value of `cf.zone.plan` in the Rules language. */
export const RULES_PLAN: Record<PlanName, string> = {
  free: 'FREE',
  pro: 'PRO',
  business: 'BIZ',
  enterprise: 'ENT',
};

export const atLeast = (plan: PlanName, minimum: PlanName) =>
  PLAN_NAMES.indexOf(plan) >= PLAN_NAMES.indexOf(minimum);

export const planLabel = (plan: PlanName) => LABELS[plan].short;

/** A plan by legacy id ("pro") or plan id (32 hex). */
export function findPlan(value: string): PlanName | undefined {
  const lower = value.toLowerCase();
  if ((PLAN_NAMES as readonly string[]).includes(lower)) return lower as PlanName;
  return PLAN_NAMES.find((p) => PLAN_IDS[p] === lower);
}

export function planJson(plan: PlanName) {
  return {
    id: PLAN_IDS[plan],
    name: LABELS[plan].name,
    price: LABELS[plan].price,
    currency: 'USD',
    frequency: plan === 'free' ? '' : 'monthly',
    is_subscribed: true,
    can_subscribe: false,
    legacy_id: plan,
    legacy_discount: false,
    externally_managed: false,
  };
}

/** Page rules each plan may have (the real service's quotas). */
export const PAGE_RULE_QUOTA: Record<PlanName, number> = { free: 3, pro: 20, business: 50, enterprise: 125 };

/** Rules in the custom-rules entry point per plan (the real service's limits). */
export const CUSTOM_RULE_QUOTA: Record<PlanName, number> = {
  free: 5,
  pro: 20,
  business: 100,
  enterprise: 1000,
};
