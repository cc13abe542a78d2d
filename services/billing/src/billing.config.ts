import { PlatformConfig } from '@forkvote/platform';
import { IsIn, IsString, Matches } from 'class-validator';

export class BillingConfig extends PlatformConfig {
  /** With a key, checkout and the customer portal are Stripe's; without, the local test-mode pages. */
  @Matches(/^((sk|rk)_(test|live)_\S+)?$/, {
    message: 'STRIPE_SECRET_KEY must look like sk_test_… or sk_live_…',
  })
  STRIPE_SECRET_KEY = '';

  @Matches(/^(whsec_\S+)?$/, { message: 'STRIPE_WEBHOOK_SECRET must look like whsec_…' })
  STRIPE_WEBHOOK_SECRET = '';

  /** Where the Stripe SDK sends its calls: only changed to point tests at a local Stripe imitation. */
  @IsString()
  STRIPE_API_HOST = '';

  @Matches(/^(\d{1,5})?$/, { message: 'STRIPE_API_PORT must be a port number' })
  STRIPE_API_PORT = '';

  @IsIn(['', 'http', 'https'])
  STRIPE_API_PROTOCOL: '' | 'http' | 'https' = '';
}
