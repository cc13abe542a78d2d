import { Plan, StripeSubscriptionShape } from '@forkvote/contracts';

/** A webhook event in Stripe's shape; the offline provider makes the same shape for its own events. */
export interface BillingEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

export interface CheckoutSessionObject {
  id: string;
  mode: 'subscription' | 'payment' | 'setup';
  client_reference_id: string | null;
  customer: string | null;
  subscription?: string | null;
  payment_status?: string;
  metadata?: Record<string, string> | null;
}

export type SubscriptionObject = StripeSubscriptionShape;

export interface CheckoutRequest {
  userId: string;
  email: string;
  plan: Plan;
  customerId: string;
  /** Same for a retried request, so a retry never opens a second checkout. */
  idempotencyKey: string;
}

/** Where payments happen: Stripe when configured, otherwise the local test-mode provider. */
export interface PaymentProvider {
  readonly kind: 'stripe' | 'local';
  createCustomer(userId: string, email: string, idempotencyKey: string): Promise<string>;
  /** The checkout address; the local provider also answers the secret that completes it. */
  createCheckout(request: CheckoutRequest): Promise<{ url: string; secret?: string }>;
  createPortal(customerId: string): Promise<string>;
  /** Verifies the signature and parses the event; throws if it is not genuine. */
  parseWebhook(rawBody: string, signature: string): BillingEvent;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
