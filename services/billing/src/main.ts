import { runService } from '@forkvote/platform';
import { BillingModule } from './billing.module';

void runService('billing', BillingModule);
