import type { StripeInformation, WireUser } from '@forkvote/contracts';

/** SPEC §4 subscription display states; amounts in cents, timestamps in seconds. */
export type BillingView =
  | { state: 'lifetime'; purchasedAt: Date | null }
  | {
      state: 'active';
      memberSince: Date;
      type: 'Monthly' | 'Yearly';
      amount: string;
      nextPaymentDate: Date | null;
      endsAt: Date | null;
    }
  | { state: 'trialing'; trialStart: Date; trialEnd: Date; amount: string; type: 'Monthly' | 'Yearly' }
  | { state: 'canceled'; canceledAt: Date | null }
  | { state: 'none' };

const date = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export function billingView(info: StripeInformation | undefined, me: WireUser | undefined): BillingView {
  if (me?.hasLifetimeAccess) {
    return {
      state: 'lifetime',
      purchasedAt: me.lifetimeAccessPurchasedAt ? new Date(me.lifetimeAccessPurchasedAt) : null,
    };
  }
  const subscription = info?.stripeSubscriptions[0];
  if (!subscription) return { state: 'none' };
  const item = subscription.items.data[0];
  const type = item?.plan.interval === 'year' ? 'Yearly' : 'Monthly';
  const amount = dollars(item?.plan.amount ?? 0);
  switch (subscription.status) {
    case 'trialing':
      return {
        state: 'trialing',
        trialStart: date(subscription.trial_start)!,
        trialEnd: date(subscription.trial_end)!,
        amount,
        type,
      };
    case 'active':
      return {
        state: 'active',
        memberSince: date(item?.created ?? subscription.created)!,
        type,
        amount,
        nextPaymentDate: subscription.cancel_at_period_end ? null : date(item?.current_period_end),
        endsAt: subscription.cancel_at_period_end
          ? date(subscription.cancel_at ?? item?.current_period_end)
          : null,
      };
    default:
      return { state: 'canceled', canceledAt: date(subscription.canceled_at ?? subscription.cancel_at) };
  }
}
