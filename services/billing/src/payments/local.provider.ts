import { createHash, randomBytes } from 'node:crypto';
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

  /**
   * Besides its owner's session, only the secret answered here opens the checkout: the gateway keeps it in
   * the registering browser's httpOnly cookie, so knowing a checkout's address is not enough to complete it.
   */
  async createCheckout(request: CheckoutRequest): Promise<{ url: string; secret: string }> {
    const secret = randomBytes(32).toString('base64url');
    const session = await this.dataSource.getRepository(LocalCheckoutSession).save({
      userId: request.userId,
      email: request.email,
      plan: request.plan,
      secretHash: sha256(secret),
    });
    // Relative: the page is served by whichever gateway the browser already talks to.
    return { url: `/api/v1/billing/checkout/${session.id}`, secret };
  }

  async createPortal(): Promise<string> {
    return '/api/v1/billing/portal';
  }

  parseWebhook(): BillingEvent {
    throw new Error('Webhooks come from Stripe; the local provider has none');
  }
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
