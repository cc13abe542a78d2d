import { Inject, Injectable } from '@nestjs/common';
import {
  CheckoutAnswer,
  Entitlement,
  LocalCheckoutAccess,
  LocalCheckoutView,
  Plan,
  PLAN_CATALOG,
  StripeInformation,
} from '@forkvote/contracts';
import { fail } from '@forkvote/platform';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { BillingEventsService } from './billing-events.service';
import { LocalCheckoutSession } from './entities/checkout-session.entity';
import { Customer } from './entities/customer.entity';
import { Subscription } from './entities/subscription.entity';
import {
  BillingEvent,
  PAYMENT_PROVIDER,
  PaymentProvider,
  SubscriptionObject,
} from './payments/payment-provider';
import { sha256 } from './payments/local.provider';

const ENTITLED_STATUSES = new Set(['active', 'trialing']);
const DAY = 86_400;

@Injectable()
export class BillingService {
  private readonly customers: Repository<Customer>;
  private readonly subscriptions: Repository<Subscription>;
  private readonly localSessions: Repository<LocalCheckoutSession>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: BillingEventsService,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {
    this.customers = dataSource.getRepository(Customer);
    this.subscriptions = dataSource.getRepository(Subscription);
    this.localSessions = dataSource.getRepository(LocalCheckoutSession);
  }

  async createCheckout(
    userId: string,
    email: string,
    plan: Plan,
    requestId: string,
  ): Promise<CheckoutAnswer> {
    let customer = await this.customers.findOneBy({ userId });
    if (!customer) {
      await this.customers.insert({ userId, email });
      customer = await this.customers.findOneByOrFail({ userId });
    }
    if (!customer.stripeCustomerId) {
      customer.stripeCustomerId = await this.provider.createCustomer(userId, email, requestId);
      await this.customers.update({ userId }, { stripeCustomerId: customer.stripeCustomerId });
    }
    const { url, secret } = await this.provider.createCheckout({
      userId,
      email,
      plan,
      customerId: customer.stripeCustomerId,
      idempotencyKey: requestId,
    });
    return {
      stripeCheckoutUrl: url,
      ...(this.provider.kind === 'local' ? { testMode: true as const } : {}),
      ...(secret ? { checkoutSecret: secret } : {}),
    };
  }

  /** Undoes createCheckout's customer when registration is rolled back. */
  async discardCustomer(userId: string): Promise<void> {
    await this.localSessions.delete({ userId });
    await this.customers.delete({ userId });
  }

  async entitlement(userId: string): Promise<Entitlement> {
    const customer = await this.customers.findOneBy({ userId });
    const lifetime = {
      hasLifetimeAccess: customer?.hasLifetimeAccess ?? false,
      lifetimeAccessPurchasedAt: customer?.lifetimeAccessPurchasedAt?.toISOString() ?? null,
    };
    if (lifetime.hasLifetimeAccess) return { canCreateRooms: true, status: 'lifetime', ...lifetime };
    const latest = (await this.userSubscriptions(userId))[0];
    if (!latest) return { canCreateRooms: false, status: 'none', ...lifetime };
    const entitled = ENTITLED_STATUSES.has(latest.status);
    return {
      canCreateRooms: entitled,
      status: entitled ? (latest.status as 'active' | 'trialing') : 'canceled',
      ...lifetime,
    };
  }

  async stripeInformation(userId: string): Promise<StripeInformation> {
    const customer = await this.customers.findOneBy({ userId });
    const subscriptions = await this.userSubscriptions(userId);
    const portal =
      customer?.stripeCustomerId && subscriptions.length > 0
        ? await this.provider.createPortal(customer.stripeCustomerId)
        : null;
    return {
      stripeCustomer:
        customer && customer.stripeCustomerId
          ? {
              id: customer.stripeCustomerId,
              email: customer.email,
              created: Math.floor(customer.createdAt.getTime() / 1000),
            }
          : null,
      customerPortalUrl: portal,
      stripeSubscriptions: subscriptions.map((s) => s.data),
      ...(this.provider.kind === 'local' ? { testMode: true as const } : {}),
    };
  }

  applyWebhook(rawBody: string, signature: string) {
    if (this.provider.kind !== 'stripe') fail(404, 'Stripe webhooks are not configured');
    let event: BillingEvent;
    try {
      event = this.provider.parseWebhook(rawBody, signature);
    } catch {
      fail(400, 'Invalid webhook signature');
    }
    return this.events.apply(event);
  }

  async localCheckout(access: LocalCheckoutAccess): Promise<LocalCheckoutView> {
    const session = await this.localSession(access);
    const plan = PLAN_CATALOG[session.plan];
    return {
      id: session.id,
      email: session.email,
      plan: session.plan,
      status: session.status,
      amountCents: plan.amountCents,
      interval: plan.interval,
      trialDays: plan.trialDays,
    };
  }

  /**
   * Completes an offline checkout through the same event path as Stripe's webhooks, exactly once: the
   * session moves from open to complete by a conditional update in the same transaction as its events,
   * so of several concurrent completions one applies and the others answer 409.
   */
  async completeLocalCheckout(access: LocalCheckoutAccess): Promise<{ redirect: string }> {
    const session = await this.localSession(access);
    const answer = await this.dataSource.transaction(async (manager) => {
      await this.closeLocalSession(manager, session.id, 'complete');
      const customer = await manager.getRepository(Customer).findOneByOrFail({ userId: session.userId });
      const now = Math.floor(Date.now() / 1000);
      const plan = PLAN_CATALOG[session.plan];
      const metadata = { userId: session.userId, plan: session.plan };
      const subscriptionId = plan.interval ? `sub_local_${randomBytes(8).toString('hex')}` : null;

      if (plan.interval && subscriptionId) {
        const trialEnd = now + plan.trialDays * DAY;
        const subscription: SubscriptionObject = {
          id: subscriptionId,
          status: 'trialing',
          customer: customer.stripeCustomerId ?? undefined,
          cancel_at_period_end: false,
          cancel_at: null,
          canceled_at: null,
          trial_start: now,
          trial_end: trialEnd,
          created: now,
          items: {
            data: [
              {
                created: now,
                current_period_end: trialEnd,
                plan: { interval: plan.interval, amount: plan.amountCents },
              },
            ],
          },
          metadata,
        };
        await this.events.applyIn(manager, localEvent('customer.subscription.created', now, subscription));
      }
      await this.events.applyIn(
        manager,
        localEvent('checkout.session.completed', now, {
          id: `cs_local_${session.id}`,
          mode: plan.interval ? 'subscription' : 'payment',
          client_reference_id: session.userId,
          customer: customer.stripeCustomerId,
          subscription: subscriptionId,
          payment_status: plan.interval ? 'no_payment_required' : 'paid',
          metadata,
        }),
      );
      return { redirect: '/payment/success' };
    });
    await this.events.announce(session.userId);
    return answer;
  }

  async cancelLocalCheckout(access: LocalCheckoutAccess): Promise<{ redirect: string }> {
    const session = await this.localSession(access);
    await this.closeLocalSession(this.dataSource.manager, session.id, 'expired');
    return { redirect: '/payment/cancel' };
  }

  /** The offline customer portal's one action: cancel the current subscription now. */
  async cancelLocalSubscription(userId: string): Promise<{ redirect: string }> {
    if (this.provider.kind !== 'local') fail(404, 'Not found');
    const current = (await this.userSubscriptions(userId)).find((s) => ENTITLED_STATUSES.has(s.status));
    if (!current) fail(404, 'You have no active subscription.');
    const now = Math.floor(Date.now() / 1000);
    await this.events.apply(
      localEvent('customer.subscription.deleted', now, {
        ...current.data,
        status: 'canceled',
        canceled_at: now,
        cancel_at: now,
      }),
    );
    return { redirect: '/profile' };
  }

  /**
   * A local checkout, for its owner's session or the holder of its secret only: its address alone (which
   * may sit in a log or a browser history) neither shows the account nor completes the purchase.
   */
  private async localSession(access: LocalCheckoutAccess): Promise<LocalCheckoutSession> {
    if (this.provider.kind !== 'local') fail(404, 'Not found');
    const id = String(access?.id ?? '');
    const session = /^[0-9a-f-]{36}$/.test(id) ? await this.localSessions.findOneBy({ id }) : null;
    if (!session) fail(404, 'This checkout does not exist.');
    const isOwner = typeof access.userId === 'string' && access.userId === session.userId;
    if (!isOwner && !secretMatches(access.secret, session.secretHash)) {
      fail(403, 'This checkout belongs to another browser. Log in to finish it from your profile.');
    }
    return session;
  }

  /** open → complete or expired, once: a checkout already finished (perhaps a moment ago) answers 409. */
  private async closeLocalSession(
    manager: EntityManager,
    id: string,
    status: 'complete' | 'expired',
  ): Promise<void> {
    const result = await manager
      .createQueryBuilder()
      .update(LocalCheckoutSession)
      .set({ status })
      .where('id = :id AND status = :open', { id, open: 'open' })
      .execute();
    if (result.affected !== 1) fail(409, 'This checkout is already finished.');
  }

  /**
   * The one that matters first (SPEC §3 shows the first): a live subscription before ended ones, then the
   * newest. A resubscribed user has an old canceled subscription next to the new one.
   */
  private async userSubscriptions(userId: string): Promise<Subscription[]> {
    const rows = await this.subscriptions.findBy({ userId });
    const live = (s: Subscription) => (ENTITLED_STATUSES.has(s.status) ? 1 : 0);
    return rows.sort((a, b) => live(b) - live(a) || b.data.created - a.data.created);
  }
}

function localEvent(type: string, created: number, object: object): BillingEvent {
  return {
    id: `evt_local_${randomBytes(12).toString('hex')}`,
    type,
    created,
    data: { object: object as Record<string, unknown> },
  };
}

function secretMatches(secret: string | null | undefined, hash: string | null): boolean {
  if (typeof secret !== 'string' || !hash) return false;
  // Hashes are compared, never the secret: how long a comparison takes says nothing about the secret.
  return sha256(secret) === hash;
}
