import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { BILLING, LocalCheckoutAccess, PLANS, Plan } from '@forkvote/contracts';
import { fail, StreamsContext } from '@forkvote/platform';
import { BillingService } from './billing.service';

interface UserScoped {
  userId: string;
}

const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

function requireUser(payload: Partial<UserScoped>): string {
  if (!isUuid(payload?.userId)) fail(400, 'A valid userId is required');
  return payload.userId;
}

@Controller()
export class BillingHandler {
  constructor(private readonly billing: BillingService) {}

  @MessagePattern(BILLING.createCheckout)
  createCheckout(
    @Payload() payload: UserScoped & { email: string; plan: Plan },
    @Ctx() context: StreamsContext,
  ) {
    const userId = requireUser(payload);
    if (!PLANS.includes(payload.plan)) fail(400, 'Unknown plan');
    if (typeof payload.email !== 'string' || payload.email.length > 320)
      fail(400, 'A valid email is required');
    return this.billing.createCheckout(userId, payload.email, payload.plan, context.getRequestId());
  }

  @MessagePattern(BILLING.discardCustomer)
  discardCustomer(@Payload() payload: UserScoped) {
    return this.billing.discardCustomer(requireUser(payload));
  }

  @MessagePattern(BILLING.entitlement)
  entitlement(@Payload() payload: UserScoped) {
    return this.billing.entitlement(requireUser(payload));
  }

  @MessagePattern(BILLING.stripeInformation)
  stripeInformation(@Payload() payload: UserScoped) {
    return this.billing.stripeInformation(requireUser(payload));
  }

  @MessagePattern(BILLING.webhook)
  webhook(@Payload() payload: { rawBody: string; signature: string }) {
    if (typeof payload?.rawBody !== 'string' || typeof payload.signature !== 'string')
      fail(400, 'Invalid webhook');
    return this.billing.applyWebhook(payload.rawBody, payload.signature);
  }

  @MessagePattern(BILLING.localCheckout)
  localCheckout(@Payload() payload: LocalCheckoutAccess) {
    return this.billing.localCheckout(payload ?? { id: '' });
  }

  @MessagePattern(BILLING.completeLocalCheckout)
  completeLocalCheckout(@Payload() payload: LocalCheckoutAccess) {
    return this.billing.completeLocalCheckout(payload ?? { id: '' });
  }

  @MessagePattern(BILLING.cancelLocalCheckout)
  cancelLocalCheckout(@Payload() payload: LocalCheckoutAccess) {
    return this.billing.cancelLocalCheckout(payload ?? { id: '' });
  }

  @MessagePattern(BILLING.cancelLocalSubscription)
  cancelLocalSubscription(@Payload() payload: UserScoped) {
    return this.billing.cancelLocalSubscription(requireUser(payload));
  }
}
