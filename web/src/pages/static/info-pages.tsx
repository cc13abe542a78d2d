import {
  CheckCircleFilled,
  ExclamationCircleFilled,
  MailOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { LinkButton } from '../../components/plain-button';
import { ResultPanel } from '../../components/result-panel';
import { useAuth } from '../../auth/auth-context';

/*
 * The static pages are plain markup and load no antd: they are read, mostly on a phone, and antd's
 * Typography, Card, Steps and Collapse would cost more to load than everything they show.
 */
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
      <h1 className="fv-page-title">About ForkVote</h1>
      <h2 className="fv-section-title">Our mission</h2>
      <p>
        Help groups of friends decide where to eat quickly and fairly, so the evening is about the food and
        the company, not the debate.
      </p>
      <h2 className="fv-section-title">Our story</h2>
      <p>
        ForkVote began in 2025 after one too many group chats that ended with everyone hungry and nobody
        deciding. We built the simplest fair method we could think of: everyone votes yes or no on a few
        nearby places, and the places everyone approves win.
      </p>
      <h2 className="fv-section-title">What people say</h2>
      <div className="fv-columns fv-columns-3">
        {testimonials.map((t) => (
          <figure className="fv-light-card fv-light-card-body fv-quote" key={t.who}>
            <blockquote>“{t.quote}”</blockquote>
            <figcaption className="fv-muted">— {t.who}</figcaption>
          </figure>
        ))}
      </div>
      <h2 className="fv-section-title">Contact us</h2>
      <div className="fv-columns fv-columns-2">
        <ContactCard icon={<MailOutlined />} title="General" mailbox={GENERAL_MAILBOX} />
        <ContactCard icon={<QuestionCircleOutlined />} title="Support" mailbox={SUPPORT_MAILBOX} />
      </div>
    </div>
  );
}

function ContactCard({ icon, title, mailbox }: { icon: ReactNode; title: string; mailbox: string }) {
  return (
    <section className="fv-light-card">
      <h3 className="fv-light-card-title fv-contact-title">
        {icon} {title}
      </h3>
      <div className="fv-light-card-body">
        <a className="fv-mail-link" href={`mailto:${mailbox}`}>
          {mailbox}
        </a>
      </div>
    </section>
  );
}

export function ContactPage() {
  return (
    <div className="fv-page fv-prose">
      <h1 className="fv-page-title">Contact</h1>
      <p>A contact form is on its way. Until then, write to us at {GENERAL_MAILBOX}.</p>
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
      <h1 className="fv-page-title">How It Works</h1>
      {/* The list's markers number the steps; their titles do not again. */}
      <ol className="fv-timeline">
        {steps.map((step) => (
          <li key={step.title}>
            <h2>{step.title}</h2>
            <p className="fv-muted">{step.description}</p>
          </li>
        ))}
      </ol>
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
      <h1 className="fv-page-title">Terms of Service</h1>
      <p className="fv-muted">Version {TERMS_VERSION}</p>
      <h2 className="fv-section-title">1. Who may use ForkVote</h2>
      <p>You must be at least 18 years old to create an account or join a session.</p>
      <h2 className="fv-section-title">2. Subscriptions</h2>
      <p>
        Hosts subscribe monthly ($1.99), yearly ($19.99) or once for lifetime access ($49.99). Monthly and
        yearly plans begin with a 7-day free trial; you are charged when it ends unless you cancel before. You
        can cancel at any time from your profile; access continues to the end of the paid period.
      </p>
      <h2 className="fv-section-title">3. Sessions</h2>
      <p>
        Place information comes from third-party providers and may be incomplete or out of date. Check opening
        hours before you go.
      </p>
      <h2 className="fv-section-title">4. Acceptable use</h2>
      <p>Do not misuse the service, try to access other people's sessions, or disrupt it for others.</p>
    </div>
  );
}

export function PrivacyPage() {
  return (
    <div className="fv-page fv-prose">
      <h1 className="fv-page-title">Privacy Policy</h1>
      <p className="fv-muted">Version {TERMS_VERSION}</p>
      <p>
        We keep what we need to run ForkVote: your name, email, hashed password, preferences, and your
        sessions' votes.
      </p>
      <p>
        Zip codes are turned into coordinates on our own servers; no third party sees them. Payments are
        handled by Stripe; we never see your card.
      </p>
      <p>You must be at least 18 to use ForkVote. Write to {SUPPORT_MAILBOX} to see or delete your data.</p>
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
      <h1 className="fv-page-title">Help</h1>
      <div className="fv-faq">
        {faqs.map((f) => (
          <details key={f.q}>
            <summary>{f.q}</summary>
            <p>{f.a}</p>
          </details>
        ))}
      </div>
      <p className="fv-help-contact">
        Still stuck? Write to <a href={`mailto:${SUPPORT_MAILBOX}`}>{SUPPORT_MAILBOX}</a>.
      </p>
    </div>
  );
}

export function PaymentSuccessPage() {
  return (
    <ResultPanel
      icon={<CheckCircleFilled className="fv-result-icon-success" />}
      title="Registration Complete"
      text="Your plan is active. Log in to create your first session."
    >
      <LinkButton to="/login" type="primary" size="large">
        Login
      </LinkButton>
    </ResultPanel>
  );
}

export function PaymentCancelPage() {
  return (
    <ResultPanel
      icon={<ExclamationCircleFilled className="fv-result-icon-warning" />}
      title="Payment Unsuccessful"
      text="Your payment did not go through. Nothing was charged."
    >
      <LinkButton to="/" type="primary">
        Return to Home
      </LinkButton>
      <LinkButton to="/feedback">Send Feedback</LinkButton>
    </ResultPanel>
  );
}
