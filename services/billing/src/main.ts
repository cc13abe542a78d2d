import '@forkvote/platform/dist/instrument';
import { runService } from '@forkvote/platform';
import { BillingConfig } from './billing.config';
import { BillingModule } from './billing.module';

void runService('billing', BillingModule, BillingConfig);
