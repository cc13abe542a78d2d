import { PLAN_CATALOG } from '@forkvote/contracts';
import Stripe from 'stripe';
import { BillingConfig } from '../billing.config';
import { BillingEvent, CheckoutRequest, PaymentProvider } from './payment-provider';

/** Stripe Checkout (subscription with a 7-day trial, or a one-time payment for lifetime) and the portal. */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly config: BillingConfig) {
    this.stripe = new Stripe(config.STRIPE_SECRET_KEY, {
      timeout: 10_000,
      maxNetworkRetries: 2,
      ...(config.STRIPE_API_HOST ? { host: config.STRIPE_API_HOST } : {}),
      ...(config.STRIPE_API_PORT ? { port: Number(config.STRIPE_API_PORT) } : {}),
      ...(config.STRIPE_API_PROTOCOL ? { protocol: config.STRIPE_API_PROTOCOL } : {}),
    });
  }

  async createCustomer(userId: string, email: string, idempotencyKey: string): Promise<string> {
    const customer = await this.stripe.customers.create(
      { email, metadata: { userId } },
      { idempotencyKey: `customer-${idempotencyKey}` },
    );
    return customer.id;
  }

  async createCheckout(request: CheckoutRequest): Promise<{ url: string }> {
    const plan = PLAN_CATALOG[request.plan];
    const metadata = { userId: request.userId, plan: request.plan };
    const common = {
      customer: request.customerId,
      client_reference_id: request.userId,
      metadata,
      success_url: `${this.config.PUBLIC_URL}/payment/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${this.config.PUBLIC_URL}/payment/cancel`,
    };
    const product_data = { name: `ForkVote ${plan.name}` };
    const session = await this.stripe.checkout.sessions.create(
      plan.interval === null
        ? {
            ...common,
            mode: 'payment',
            line_items: [
              { quantity: 1, price_data: { currency: 'usd', unit_amount: plan.amountCents, product_data } },
            ],
          }
        : {
            ...common,
            mode: 'subscription',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: plan.amountCents,
                  recurring: { interval: plan.interval },
                  product_data,
                },
              },
            ],
            subscription_data: { trial_period_days: plan.trialDays, metadata },
          },
      { idempotencyKey: `checkout-${request.idempotencyKey}` },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { url: session.url };
  }

  async createPortal(customerId: string): Promise<string> {
    const portal = await this.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: `${this.config.PUBLIC_URL}/profile`,
    });
    return portal.url;
  }

  parseWebhook(rawBody: string, signature: string): BillingEvent {
    return this.stripe.webhooks.constructEvent(
      rawBody,
      signature,
      this.config.STRIPE_WEBHOOK_SECRET,
    ) as unknown as BillingEvent;
  }
}
