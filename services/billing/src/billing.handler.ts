import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import {
  BILLING,
  CreateCheckoutCommand,
  LocalCheckoutAccess,
  StripeWebhookCommand,
  UserScoped,
} from '@forkvote/contracts';
import { StreamsContext } from '@forkvote/platform';
import { BillingService } from './billing.service';

/** The billing service's requests; the platform's RPC pipe has validated each payload against its command. */
@Controller()
export class BillingHandler {
  constructor(private readonly billing: BillingService) {}

  @MessagePattern(BILLING.createCheckout)
  createCheckout(@Payload() command: CreateCheckoutCommand, @Ctx() context: StreamsContext) {
    return this.billing.createCheckout(command.userId, command.email, command.plan, context.getRequestId());
  }

  @MessagePattern(BILLING.discardCustomer)
  discardCustomer(@Payload() command: UserScoped) {
    return this.billing.discardCustomer(command.userId);
  }

  @MessagePattern(BILLING.entitlement)
  entitlement(@Payload() command: UserScoped) {
    return this.billing.entitlement(command.userId);
  }

  @MessagePattern(BILLING.stripeInformation)
  stripeInformation(@Payload() command: UserScoped) {
    return this.billing.stripeInformation(command.userId);
  }

  @MessagePattern(BILLING.webhook)
  webhook(@Payload() command: StripeWebhookCommand) {
    return this.billing.applyWebhook(command.rawBody, command.signature);
  }

  @MessagePattern(BILLING.localCheckout)
  localCheckout(@Payload() access: LocalCheckoutAccess) {
    return this.billing.localCheckout(access);
  }

  @MessagePattern(BILLING.completeLocalCheckout)
  completeLocalCheckout(@Payload() access: LocalCheckoutAccess) {
    return this.billing.completeLocalCheckout(access);
  }

  @MessagePattern(BILLING.cancelLocalCheckout)
  cancelLocalCheckout(@Payload() access: LocalCheckoutAccess) {
    return this.billing.cancelLocalCheckout(access);
  }

  @MessagePattern(BILLING.cancelLocalSubscription)
  cancelLocalSubscription(@Payload() command: UserScoped) {
    return this.billing.cancelLocalSubscription(command.userId);
  }
}
