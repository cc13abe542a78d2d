import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Customer } from './entities/customer.entity';
import { ProcessedEvent } from './entities/processed-event.entity';
import { Subscription } from './entities/subscription.entity';
import { BillingEvent, CheckoutSessionObject, SubscriptionObject } from './payments/payment-provider';

export type ApplyResult = 'applied' | 'duplicate' | 'ignored';

/**
 * Applies payment events — Stripe's webhooks and the local provider's — to billing's tables. Each event
 * applies once (its id is recorded in the same transaction), and a subscription event older than the state
 * already stored is skipped, so retries and out-of-order deliveries leave the right state.
 */
@Injectable()
export class BillingEventsService {
  private readonly logger = new Logger(BillingEventsService.name);

  constructor(private readonly dataSource: DataSource) {}

  apply(event: BillingEvent): Promise<ApplyResult> {
    return this.dataSource.transaction((manager) => this.applyIn(manager, event));
  }

  /** Applies `event` inside the caller's transaction (the local checkout completes in one). */
  async applyIn(manager: EntityManager, event: BillingEvent): Promise<ApplyResult> {
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(ProcessedEvent)
      .values({ id: event.id, type: event.type })
      .orIgnore()
      .returning(['id'])
      .execute();
    if ((inserted.raw as unknown[]).length === 0) return 'duplicate';

    switch (event.type) {
      case 'checkout.session.completed':
        return this.checkoutCompleted(manager, event, event.data.object as unknown as CheckoutSessionObject);
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.subscriptionChanged(manager, event, event.data.object as unknown as SubscriptionObject);
      default:
        return 'ignored';
    }
  }

  private async checkoutCompleted(
    manager: EntityManager,
    event: BillingEvent,
    session: CheckoutSessionObject,
  ): Promise<ApplyResult> {
    const userId = session.client_reference_id ?? session.metadata?.userId;
    if (!userId) {
      this.logger.warn(`Checkout ${session.id} has no user reference; ignored`);
      return 'ignored';
    }
    const customers = manager.getRepository(Customer);
    if (session.customer) await customers.update({ userId }, { stripeCustomerId: session.customer });
    if (
      session.mode === 'payment' &&
      session.payment_status === 'paid' &&
      session.metadata?.plan === 'lifetime'
    ) {
      await customers.update(
        { userId },
        { hasLifetimeAccess: true, lifetimeAccessPurchasedAt: new Date(event.created * 1000) },
      );
    }
    return 'applied';
  }

  private async subscriptionChanged(
    manager: EntityManager,
    event: BillingEvent,
    subscription: SubscriptionObject,
  ): Promise<ApplyResult> {
    const userId =
      subscription.metadata?.userId ?? (await this.userOfCustomer(manager, subscription.customer));
    if (!userId) {
      this.logger.warn(`Subscription ${subscription.id} belongs to no known user; ignored`);
      return 'ignored';
    }
    const subscriptions = manager.getRepository(Subscription);
    const current = await subscriptions.findOne({
      where: { id: subscription.id },
      lock: { mode: 'pessimistic_write' },
    });
    if (current && current.eventCreated > event.created) return 'ignored';
    await subscriptions.save({
      id: subscription.id,
      userId,
      status: subscription.status,
      data: subscription,
      eventCreated: event.created,
    });
    return 'applied';
  }

  private async userOfCustomer(manager: EntityManager, customerId?: string): Promise<string | undefined> {
    if (!customerId) return undefined;
    const customer = await manager.getRepository(Customer).findOneBy({ stripeCustomerId: customerId });
    return customer?.userId;
  }
}
