import { Inject, Injectable, Logger } from '@nestjs/common';
import { announceAccountChange, PlatformConfig, REDIS } from '@forkvote/platform';
import type Redis from 'ioredis';
import { DataSource, EntityManager } from 'typeorm';
import { Customer } from './entities/customer.entity';
import { ProcessedEvent } from './entities/processed-event.entity';
import { Subscription } from './entities/subscription.entity';
import { BillingEvent, CheckoutSessionObject, SubscriptionObject } from './payments/payment-provider';

export type ApplyResult = 'applied' | 'duplicate' | 'ignored';

/** What applying an event did, and to whose account (announced once the transaction commits). */
export interface Applied {
  result: ApplyResult;
  userId?: string;
}

/**
 * Applies payment events — Stripe's webhooks and the local provider's — to billing's tables. Each event
 * applies once (its id is recorded in the same transaction), and a subscription event older than the state
 * already stored is skipped, so retries and out-of-order deliveries leave the right state.
 */
@Injectable()
export class BillingEventsService {
  private readonly logger = new Logger(BillingEventsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: PlatformConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async apply(event: BillingEvent): Promise<ApplyResult> {
    const applied = await this.dataSource.transaction((manager) => this.applyIn(manager, event));
    if (applied.userId) await this.announce(applied.userId);
    return applied.result;
  }

  /** After a committed change of a user's plan: gateways drop what they cached of the account. */
  announce(userId: string): Promise<void> {
    return announceAccountChange(this.redis, this.config.REDIS_PREFIX, userId);
  }

  /**
   * Applies `event` inside the caller's transaction (the local checkout completes in one); the caller
   * announces the change after its commit.
   */
  async applyIn(manager: EntityManager, event: BillingEvent): Promise<Applied> {
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(ProcessedEvent)
      .values({ id: event.id, type: event.type })
      .orIgnore()
      .returning(['id'])
      .execute();
    if ((inserted.raw as unknown[]).length === 0) return { result: 'duplicate' };

    switch (event.type) {
      case 'checkout.session.completed':
        return this.checkoutCompleted(manager, event, event.data.object as unknown as CheckoutSessionObject);
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.subscriptionChanged(manager, event, event.data.object as unknown as SubscriptionObject);
      default:
        return { result: 'ignored' };
    }
  }

  private async checkoutCompleted(
    manager: EntityManager,
    event: BillingEvent,
    session: CheckoutSessionObject,
  ): Promise<Applied> {
    const userId = session.client_reference_id ?? session.metadata?.userId;
    if (!userId) {
      this.logger.warn(`Checkout ${session.id} has no user reference; ignored`);
      return { result: 'ignored' };
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
    return { result: 'applied', userId };
  }

  private async subscriptionChanged(
    manager: EntityManager,
    event: BillingEvent,
    subscription: SubscriptionObject,
  ): Promise<Applied> {
    const userId =
      subscription.metadata?.userId ?? (await this.userOfCustomer(manager, subscription.customer));
    if (!userId) {
      this.logger.warn(`Subscription ${subscription.id} belongs to no known user; ignored`);
      return { result: 'ignored' };
    }
    const subscriptions = manager.getRepository(Subscription);
    const current = await subscriptions.findOne({
      where: { id: subscription.id },
      lock: { mode: 'pessimistic_write' },
    });
    if (current && current.eventCreated > event.created) return { result: 'ignored' };
    await subscriptions.save({
      id: subscription.id,
      userId,
      status: subscription.status,
      data: subscription,
      eventCreated: event.created,
    });
    return { result: 'applied', userId };
  }

  private async userOfCustomer(manager: EntityManager, customerId?: string): Promise<string | undefined> {
    if (!customerId) return undefined;
    const customer = await manager.getRepository(Customer).findOneBy({ stripeCustomerId: customerId });
    return customer?.userId;
  }
}
