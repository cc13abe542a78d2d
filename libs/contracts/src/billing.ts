import { IsIn } from 'class-validator';
import { MESSAGES } from './messages';
import { PLANS, Plan } from './plans';

export * from './plans';

export class SubscribeDto {
  @IsIn(PLANS, { message: MESSAGES.invalidPlan })
  plan: Plan;
}

/** What the billing state allows. `canCreateRooms` is the creator-capable and host-role check. */
export interface Entitlement {
  canCreateRooms: boolean;
  /** 'none' until a checkout completes. */
  status: 'lifetime' | 'active' | 'trialing' | 'canceled' | 'none';
  hasLifetimeAccess: boolean;
  lifetimeAccessPurchasedAt: string | null;
}

/** A subscription in Stripe's own shape (only the fields the product reads). */
export interface StripeSubscriptionShape {
  id: string;
  status: string;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  trial_start: number | null;
  trial_end: number | null;
  created: number;
  items: {
    data: {
      created: number;
      current_period_end: number;
      plan: { interval: 'month' | 'year'; amount: number };
    }[];
  };
  metadata?: Record<string, string>;
  customer?: string;
}

/** GET /api/v1/me/stripe */
export interface StripeInformation {
  stripeCustomer: { id: string; email: string; created: number } | null;
  customerPortalUrl: string | null;
  stripeSubscriptions: StripeSubscriptionShape[];
  /** Present when billing runs the local test-mode checkout (BILLING_MODE=test): nothing is charged. */
  testMode?: true;
}

export interface CheckoutAnswer {
  stripeCheckoutUrl: string;
  testMode?: true;
  /**
   * Local test-mode checkouts only, between services: the secret that lets the registering browser
   * complete its checkout. The gateway moves it into an httpOnly cookie and never sends it in a body.
   */
  checkoutSecret?: string;
}

/** The local test-mode checkout page's content (billing answers it, the gateway renders it). */
export interface LocalCheckoutView {
  id: string;
  email: string;
  plan: Plan;
  status: 'open' | 'complete' | 'expired';
  amountCents: number;
  interval: 'month' | 'year' | null;
  trialDays: number;
}

/** The httpOnly cookie holding a local checkout's secret, scoped to the checkout pages. */
export const CHECKOUT_COOKIE = 'fv_checkout';
