import { MailOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { Card, Col, Collapse, Result, Row, Steps, Typography } from 'antd';
import { LinkButton } from '../../components/app-button';
import { useAuth } from '../../auth/auth-context';

const { Title, Paragraph } = Typography;
export const GENERAL_MAILBOX = 'hello@forkvote.app';
export const SUPPORT_MAILBOX = 'support@forkvote.app';
export const TERMS_VERSION = '1.0';

export function AboutPage() {
  const testimonials = [
    { quote: 'We used to spend 30 minutes deciding. Now it takes three.', who: 'Priya, Chicago' },
    { quote: 'The yes/no votes end the "I don\'t mind, you pick" loop for good.', who: 'Marcus, Austin' },
    { quote: 'Our Friday team lunch finally has a system. Everyone gets a say.', who: 'Elena, Seattle' },
  ];
  return (
    <div className="fv-page fv-prose">
      <Title>About ForkVote</Title>
      <Title level={2}>Our mission</Title>
      <Paragraph>
        Help groups of friends decide where to eat quickly and fairly, so the evening is about the food and
        the company, not the debate.
      </Paragraph>
      <Title level={2}>Our story</Title>
      <Paragraph>
        ForkVote began in 2025 after one too many group chats that ended with everyone hungry and nobody
        deciding. We built the simplest fair method we could think of: everyone votes yes or no on a few
        nearby places, and the places everyone approves win.
      </Paragraph>
      <Title level={2}>What people say</Title>
      <Row gutter={[16, 16]}>
        {testimonials.map((t) => (
          <Col xs={24} md={8} key={t.who}>
            <Card>
              <Paragraph italic>“{t.quote}”</Paragraph>
              <Typography.Text type="secondary">— {t.who}</Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
      <Title level={2}>Contact us</Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card
            title={
              <>
                <MailOutlined /> General
              </>
            }
          >
            <a className="fv-mail-link" href={`mailto:${GENERAL_MAILBOX}`}>
              {GENERAL_MAILBOX}
            </a>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card
            title={
              <>
                <QuestionCircleOutlined /> Support
              </>
            }
          >
            <a className="fv-mail-link" href={`mailto:${SUPPORT_MAILBOX}`}>
              {SUPPORT_MAILBOX}
            </a>
          </Card>
        </Col>
      </Row>
    </div>
  );
}

export function ContactPage() {
  return (
    <div className="fv-page fv-prose">
      <Title>Contact</Title>
      <Paragraph>A contact form is on its way. Until then, write to us at {GENERAL_MAILBOX}.</Paragraph>
    </div>
  );
}

export function HowItWorksPage() {
  const auth = useAuth();
  const steps = [
    {
      title: 'Register',
      description:
        'Pick a plan and create your host account. Monthly and yearly plans start with a 7-day free trial.',
    },
    { title: 'Create a Session', description: 'Open a session and get a 6-character waiting room ID.' },
    {
      title: 'Invite Friends and pick what sounds good',
      description:
        'Share the link or ID. Set the location, radius, sort order and the kinds of places you feel like.',
    },
    { title: 'Vote', description: 'Everyone says yes or no to the same batch of 5 nearby places.' },
    {
      title: 'See the results',
      description: 'The places everyone approved win. No winner? Vote on the next five.',
    },
  ];
  return (
    <div className="fv-page">
      <Title>How It Works</Title>
      <Steps
        direction="vertical"
        current={-1}
        // The step icons already number the steps.
        items={steps}
      />
      {!auth.isSignedIn && (
        <LinkButton to="/pricing" type="primary" size="large">
          Start Your Free Trial
        </LinkButton>
      )}
    </div>
  );
}

export function TermsPage() {
  return (
    <div className="fv-page fv-prose">
      <Title>Terms of Service</Title>
      <Paragraph type="secondary">Version {TERMS_VERSION}</Paragraph>
      <Title level={2}>1. Who may use ForkVote</Title>
      <Paragraph>You must be at least 18 years old to create an account or join a session.</Paragraph>
      <Title level={2}>2. Subscriptions</Title>
      <Paragraph>
        Hosts subscribe monthly ($1.99), yearly ($19.99) or once for lifetime access ($49.99). Monthly and
        yearly plans begin with a 7-day free trial; you are charged when it ends unless you cancel before. You
        can cancel at any time from your profile; access continues to the end of the paid period.
      </Paragraph>
      <Title level={2}>3. Sessions</Title>
      <Paragraph>
        Place information comes from third-party providers and may be incomplete or out of date. Check opening
        hours before you go.
      </Paragraph>
      <Title level={2}>4. Acceptable use</Title>
      <Paragraph>
        Do not misuse the service, try to access other people's sessions, or disrupt it for others.
      </Paragraph>
    </div>
  );
}

export function PrivacyPage() {
  return (
    <div className="fv-page fv-prose">
      <Title>Privacy Policy</Title>
      <Paragraph type="secondary">Version {TERMS_VERSION}</Paragraph>
      <Paragraph>
        We keep what we need to run ForkVote: your name, email, hashed password, preferences, and your
        sessions' votes.
      </Paragraph>
      <Paragraph>
        Zip codes are turned into coordinates on our own servers; no third party sees them. Payments are
        handled by Stripe; we never see your card.
      </Paragraph>
      <Paragraph>
        You must be at least 18 to use ForkVote. Write to {SUPPORT_MAILBOX} to see or delete your data.
      </Paragraph>
    </div>
  );
}

export function HelpPage() {
  const faqs = [
    {
      q: 'How do my friends join?',
      a: 'Share the invite link from the waiting room, or tell them the 6-character waiting room ID to enter on the Join a Session page. Friends do not need an account.',
    },
    {
      q: 'What counts as a winner?',
      a: "A place wins when every voter said yes to it. If no place gets everyone's yes, the host can ask for the next five places.",
    },
    {
      q: 'Can I change the search area?',
      a: 'Yes. Before voting starts, the host sets the zip code or uses the browser location, the radius (1 to 50 miles or 80 km), the sort order and the filters.',
    },
    {
      q: 'How do I cancel my subscription?',
      a: 'Open your profile, go to Billing Information and choose Manage billing. Access continues to the end of the period you paid for.',
    },
  ];
  return (
    <div className="fv-page fv-prose">
      <Title>Help</Title>
      <Collapse
        items={faqs.map((f, i) => ({ key: String(i), label: f.q, children: <Paragraph>{f.a}</Paragraph> }))}
      />
      <Paragraph className="fv-help-contact">
        Still stuck? Write to <a href={`mailto:${SUPPORT_MAILBOX}`}>{SUPPORT_MAILBOX}</a>.
      </Paragraph>
    </div>
  );
}

export function PaymentSuccessPage() {
  return (
    <Result
      status="success"
      title={<h1 className="fv-result-title">Registration Complete</h1>}
      subTitle="Your plan is active. Log in to create your first session."
      extra={
        <LinkButton to="/login" type="primary" size="large">
          Login
        </LinkButton>
      }
    />
  );
}

export function PaymentCancelPage() {
  return (
    <Result
      status="warning"
      title={<h1 className="fv-result-title">Payment Unsuccessful</h1>}
      subTitle="Your payment did not go through. Nothing was charged."
      extra={[
        <LinkButton to="/" key="home" type="primary">
          Return to Home
        </LinkButton>,
        <LinkButton to="/feedback" key="feedback">
          Send Feedback
        </LinkButton>,
      ]}
    />
  );
}
