import { Module } from '@nestjs/common';
import { PlatformModule } from '@forkvote/platform';
import { DataSource } from 'typeorm';
import { BillingConfig } from './billing.config';
import { BillingEventsService } from './billing-events.service';
import { BillingHandler } from './billing.handler';
import { BillingService } from './billing.service';
import { LocalCheckoutSession } from './entities/checkout-session.entity';
import { Customer } from './entities/customer.entity';
import { ProcessedEvent } from './entities/processed-event.entity';
import { Subscription } from './entities/subscription.entity';
import { Initial1763900000000 } from './migrations/1763900000000-initial';
import { Subscriptions1763900000001 } from './migrations/1763900000001-subscriptions';
import { CheckoutSecret1763900000002 } from './migrations/1763900000002-checkout-secret';
import { LocalPaymentProvider } from './payments/local.provider';
import { PAYMENT_PROVIDER } from './payments/payment-provider';
import { StripePaymentProvider } from './payments/stripe.provider';

export const billingDatabase = {
  entities: [Customer, Subscription, LocalCheckoutSession, ProcessedEvent],
  migrations: [Initial1763900000000, Subscriptions1763900000001, CheckoutSecret1763900000002],
};

@Module({
  imports: [
    PlatformModule.forService('billing', billingDatabase, BillingConfig, (config) =>
      config.paymentMode === 'test' ? 'test mode' : 'stripe',
    ),
  ],
  controllers: [BillingHandler],
  providers: [
    BillingService,
    BillingEventsService,
    {
      provide: PAYMENT_PROVIDER,
      inject: [BillingConfig, DataSource],
      useFactory: (config: BillingConfig, dataSource: DataSource) =>
        config.paymentMode === 'stripe'
          ? new StripePaymentProvider(config)
          : new LocalPaymentProvider(dataSource),
    },
  ],
})
export class BillingModule {}
