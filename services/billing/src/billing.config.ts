import { PlatformConfig, RequiredInProduction } from '@forkvote/platform';
import { IsIn, IsString, Matches, ValidateBy } from 'class-validator';

const testMode = (config: BillingConfig) => config.BILLING_MODE === 'test';
/** BILLING_MODE=stripe, in any environment, needs the key it names. */
const NeededForStripeMode = (name: string) =>
  ValidateBy({
    name: 'neededForStripeMode',
    validator: {
      validate: (value: unknown, args) =>
        (args?.object as BillingConfig).BILLING_MODE !== 'stripe' || !!value,
      defaultMessage: () => `${name} is required when BILLING_MODE=stripe`,
    },
  });

const needsStripe =
  'is required in production, or set BILLING_MODE=test for the labelled local test-mode checkout';

export class BillingConfig extends PlatformConfig {
  /**
   * `stripe`: Stripe Checkout and the Customer Portal (needs both Stripe variables). `test`: the local
   * checkout that completes without payment, labelled "test mode" on every page, answer and health report.
   * Empty: stripe when STRIPE_SECRET_KEY is set, otherwise test; production never falls back to test.
   */
  @IsIn(['', 'stripe', 'test'], { message: 'BILLING_MODE must be stripe or test' })
  BILLING_MODE: '' | 'stripe' | 'test' = '';

  @Matches(/^((sk|rk)_(test|live)_\S+)?$/, {
    message: 'STRIPE_SECRET_KEY must look like sk_test_… or sk_live_…',
  })
  @RequiredInProduction(`STRIPE_SECRET_KEY ${needsStripe}`, testMode)
  @NeededForStripeMode('STRIPE_SECRET_KEY')
  STRIPE_SECRET_KEY = '';

  @Matches(/^(whsec_\S+)?$/, { message: 'STRIPE_WEBHOOK_SECRET must look like whsec_…' })
  @RequiredInProduction(`STRIPE_WEBHOOK_SECRET ${needsStripe}`, testMode)
  @NeededForStripeMode('STRIPE_WEBHOOK_SECRET')
  STRIPE_WEBHOOK_SECRET = '';

  /** Where the Stripe SDK sends its calls: only changed to point tests at a local Stripe imitation. */
  @IsString()
  STRIPE_API_HOST = '';

  @Matches(/^(\d{1,5})?$/, { message: 'STRIPE_API_PORT must be a port number' })
  STRIPE_API_PORT = '';

  @IsIn(['', 'http', 'https'])
  STRIPE_API_PROTOCOL: '' | 'http' | 'https' = '';

  /** Which payment provider runs: the local test-mode checkout only when chosen or (outside production) keyless. */
  get paymentMode(): 'stripe' | 'test' {
    if (this.BILLING_MODE) return this.BILLING_MODE;
    return this.STRIPE_SECRET_KEY ? 'stripe' : 'test';
  }
}
