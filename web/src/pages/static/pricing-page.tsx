import { CheckOutlined } from '@ant-design/icons';
import { PLAN_CATALOG, PLANS, type Plan } from '@forkvote/contracts';
import { Card, Col, Row, Tag, Typography } from 'antd';
import { LinkButton } from '../../components/app-button';

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

export function PricingPage() {
  return (
    <div className="fv-page">
      <Typography.Title>Pricing</Typography.Title>
      <Typography.Paragraph className="fv-lead">
        Hosts subscribe; friends always join free. Monthly and yearly plans start with a 7-day free trial.
      </Typography.Paragraph>
      <Row gutter={[24, 24]}>
        {PLANS.map((plan) => {
          const info = PLAN_CATALOG[plan];
          return (
            <Col key={plan} xs={24} md={8}>
              <Card
                className={`fv-plan${plan === 'yearly' ? ' fv-plan-featured' : ''}`}
                title={info.name}
                extra={plan === 'yearly' ? <Tag className="fv-tag-brand">Best value</Tag> : null}
              >
                <div className="fv-plan-price">${(info.amountCents / 100).toFixed(2)}</div>
                <Typography.Text type="secondary">
                  {info.interval ? `per ${info.interval}` : 'one-time payment'}
                </Typography.Text>
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
              </Card>
            </Col>
          );
        })}
      </Row>
    </div>
  );
}
