import {
  NO_LIMITS,
  type StripeInformation,
  type StripeSubscriptionShape,
  type WireUser,
} from '@forkvote/contracts';
import { describe, expect, it } from 'vitest';
import { billingView } from './billing-view';

const me = (extra: Partial<WireUser> = {}): WireUser => ({
  name: 'A',
  email: 'a@b.co',
  defaultZipcode: null,
  contactMeForUserFeedback: false,
  restaurantTypesToInclude: [],
  restaurantTypesToExclude: [],
  limits: NO_LIMITS,
  hasLifetimeAccess: false,
  lifetimeAccessPurchasedAt: null,
  ...extra,
});
const sub = (extra: Partial<StripeSubscriptionShape>): StripeInformation => ({
  stripeCustomer: { id: 'cus', email: 'a@b.co', created: 1 },
  customerPortalUrl: '/portal',
  stripeSubscriptions: [
    {
      id: 'sub',
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      trial_start: 1_700_000_000,
      trial_end: 1_700_604_800,
      created: 1_700_000_000,
      items: {
        data: [
          {
            created: 1_700_000_000,
            current_period_end: 1_702_592_000,
            plan: { interval: 'month', amount: 199 },
          },
        ],
      },
      ...extra,
    },
  ],
});

describe('billing display states (SPEC §4)', () => {
  it('shows lifetime when the user has lifetime access', () => {
    expect(
      billingView(
        undefined,
        me({ hasLifetimeAccess: true, lifetimeAccessPurchasedAt: '2026-01-02T00:00:00.000Z' }),
      ),
    ).toEqual({
      state: 'lifetime',
      purchasedAt: new Date('2026-01-02T00:00:00.000Z'),
    });
  });

  it('shows active with member since, type, amount in dollars and the next payment date', () => {
    expect(billingView(sub({}), me())).toEqual({
      state: 'active',
      memberSince: new Date(1_700_000_000_000),
      type: 'Monthly',
      amount: '$1.99',
      nextPaymentDate: new Date(1_702_592_000_000),
      endsAt: null,
    });
  });

  it('shows the end date instead when cancelled at period end', () => {
    const view = billingView(sub({ cancel_at_period_end: true, cancel_at: 1_702_592_000 }), me());
    expect(view).toMatchObject({
      state: 'active',
      nextPaymentDate: null,
      endsAt: new Date(1_702_592_000_000),
    });
  });

  it('shows the trial start, end and the amount to be charged', () => {
    const yearly = sub({ status: 'trialing' });
    yearly.stripeSubscriptions[0].items.data[0].plan = { interval: 'year', amount: 1999 };
    expect(billingView(yearly, me())).toEqual({
      state: 'trialing',
      trialStart: new Date(1_700_000_000_000),
      trialEnd: new Date(1_700_604_800_000),
      amount: '$19.99',
      type: 'Yearly',
    });
  });

  it('shows the cancel date when canceled, and nothing without a subscription', () => {
    expect(billingView(sub({ status: 'canceled', canceled_at: 1_701_000_000 }), me())).toEqual({
      state: 'canceled',
      canceledAt: new Date(1_701_000_000_000),
    });
    expect(
      billingView({ stripeCustomer: null, customerPortalUrl: null, stripeSubscriptions: [] }, me()),
    ).toEqual({ state: 'none' });
  });
});
