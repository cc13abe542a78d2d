import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { LocalCheckoutSession } from '../entities/checkout-session.entity';
import { BillingEvent, CheckoutRequest, PaymentProvider } from './payment-provider';

/**
 * The offline provider: a local checkout page, clearly in test mode, served by the gateway. Completing it
 * produces Stripe-shaped events that go through the same code as Stripe's webhooks.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly kind = 'local' as const;

  constructor(private readonly dataSource: DataSource) {}

  async createCustomer(): Promise<string> {
    return `cus_local_${randomBytes(8).toString('hex')}`;
  }

  async createCheckout(request: CheckoutRequest): Promise<string> {
    const session = await this.dataSource.getRepository(LocalCheckoutSession).save({
      userId: request.userId,
      email: request.email,
      plan: request.plan,
    });
    // Relative: the page is served by whichever gateway the browser already talks to.
    return `/api/v1/billing/checkout/${session.id}`;
  }

  async createPortal(): Promise<string> {
    return '/api/v1/billing/portal';
  }

  parseWebhook(): BillingEvent {
    throw new Error('Webhooks come from Stripe; the local provider has none');
  }
}
