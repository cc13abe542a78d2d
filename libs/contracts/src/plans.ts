export const PLANS = ['monthly', 'yearly', 'lifetime'] as const;
export type Plan = (typeof PLANS)[number];

/** SPEC §9: prices in cents; monthly and yearly carry a 7-day free trial, lifetime is paid once. */
export const PLAN_CATALOG: Record<
  Plan,
  { name: string; amountCents: number; interval: 'month' | 'year' | null; trialDays: number }
> = {
  monthly: { name: 'Monthly', amountCents: 199, interval: 'month', trialDays: 7 },
  yearly: { name: 'Yearly', amountCents: 1999, interval: 'year', trialDays: 7 },
  lifetime: { name: 'Lifetime', amountCents: 4999, interval: null, trialDays: 0 },
};
