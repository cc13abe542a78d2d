import { Module } from '@nestjs/common';
import { PlatformModule } from '@forkvote/platform';
import { Customer } from './entities/customer.entity';
import { Initial1763900000000 } from './migrations/1763900000000-initial';

export const billingDatabase = { entities: [Customer], migrations: [Initial1763900000000] };

@Module({
  imports: [PlatformModule.forService('billing', billingDatabase)],
})
export class BillingModule {}
