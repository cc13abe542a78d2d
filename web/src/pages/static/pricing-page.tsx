import { CheckOutlined } from '@ant-design/icons';
import { PLAN_CATALOG, PLANS, type Plan } from '@forkvote/contracts';
import { LinkButton } from '../../components/plain-button';

export function planPriceLabel(plan: Plan): string {
  const { amountCents, interval } = PLAN_CATALOG[plan];
  const price = `$${(amountCents / 100).toFixed(2)}`;
  return interval ? `${price} per ${interval}` : `${price} one-time`;
}

const PERKS = [
  'Unlimited sessions',
  'Invite as many friends as you like',
  'Filters, radius and sort order',
  'Results the moment everyone votes',
];

/** Plain markup, no antd: a page most people read on a phone before they decide. */
export function PricingPage() {
  return (
    <div className="fv-page">
      <h1 className="fv-page-title">Pricing</h1>
      <p className="fv-lead">
        Hosts subscribe; friends always join free. Monthly and yearly plans start with a 7-day free trial.
      </p>
      <div className="fv-columns fv-columns-3">
        {PLANS.map((plan) => {
          const info = PLAN_CATALOG[plan];
          return (
            <section
              key={plan}
              className={`fv-light-card fv-plan${plan === 'yearly' ? ' fv-plan-featured' : ''}`}
              aria-labelledby={`plan-${plan}`}
            >
              <header className="fv-plan-head">
                <h2 id={`plan-${plan}`}>{info.name}</h2>
                {plan === 'yearly' && <span className="fv-tag-brand">Best value</span>}
              </header>
              <div className="fv-light-card-body">
                <div className="fv-plan-price">${(info.amountCents / 100).toFixed(2)}</div>
                <span className="fv-muted">
                  {info.interval ? `per ${info.interval}` : 'one-time payment'}
                </span>
                <p className="fv-plan-trial">
                  {info.trialDays > 0 ? `${info.trialDays}-day free trial` : 'Pay once, host forever'}
                </p>
                <ul className="fv-perks">
                  {PERKS.map((perk) => (
                    <li key={perk}>
                      <CheckOutlined /> {perk}
                    </li>
                  ))}
                </ul>
                <LinkButton
                  to={`/register?plan=${plan}`}
                  type={plan === 'yearly' ? 'primary' : 'default'}
                  block
                  size="large"
                >
                  {info.trialDays > 0 ? 'Start Your Free Trial' : 'Get Lifetime Access'}
                </LinkButton>
              </div>
            </section>
          );
        })}
      </div>
    </div>
  );
}
