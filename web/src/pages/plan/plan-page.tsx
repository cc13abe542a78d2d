import {
  CalendarOutlined,
  ClockCircleOutlined,
  EnvironmentOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import { DECIDED_BY_TEXT, DECISION_MESSAGES, type PlanView } from '@forkvote/contracts';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import useSWR from 'swr';
import { ApiError } from '../../api/http';
import { CopyFeedback } from '../../components/copy-feedback';
import { PlainAlert } from '../../components/plain-alert';
import { LinkButton, PlainButton } from '../../components/plain-button';
import { shareLink, useCopyLink } from '../../room/use-copy-invite';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/**
 * /plan/{token}: the place a group chose, public and read-only (anyone with the link). Where, when, how to
 * get there, a calendar file; nothing about who voted how.
 */
export function PlanPage() {
  const { token = '' } = useParams();
  const { data: plan, error } = useSWR<PlanView>(`/api/v1/plans/${encodeURIComponent(token)}`);
  const copier = useCopyLink();
  useEffect(() => {
    if (plan) document.title = `${plan.place.name} · ForkVote plan`;
  }, [plan]);

  if (error) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <div className="fv-page fv-plan-page">
        <h1 className="fv-page-title">The plan</h1>
        <PlainAlert
          type="error"
          role="alert"
          message={missing ? DECISION_MESSAGES.planNotFound : 'An unexpected error occurred'}
        />
        <LinkButton to="/" className="fv-more">
          Go to the home page
        </LinkButton>
      </div>
    );
  }
  if (!plan)
    return (
      <div className="fv-page fv-plan-page" aria-busy="true">
        <h1 className="fv-page-title">The plan</h1>
      </div>
    );

  const url = window.location.href;
  const share = () =>
    shareLink({ title: plan.place.name, text: `The plan: ${plan.place.name}`, url }, copier.copy);

  return (
    <div className="fv-page fv-plan-page">
      <p className="fv-muted fv-plan-kicker">The plan</p>
      <h1 className="fv-page-title" data-testid="plan-place">
        {plan.place.name}
      </h1>
      <section className="fv-light-card fv-light-card-body fv-stack fv-plan-card">
        <p className="fv-plan-when" data-testid="plan-time">
          <ClockCircleOutlined /> <time dateTime={plan.startsAt}>{when(plan.startsAt)}</time>
        </p>
        {plan.place.address && (
          <p className="fv-plan-where">
            <EnvironmentOutlined /> {plan.place.address}
          </p>
        )}
        {plan.place.openNow !== null && (
          <p className="fv-muted" data-testid="plan-open">
            {plan.place.openNow ? 'Open' : 'Closed'} when the group decided.
          </p>
        )}
        {plan.place.hours && <p className="fv-muted">Hours: {plan.place.hours}</p>}
        <p className="fv-muted">{DECIDED_BY_TEXT[plan.decidedBy]}</p>
        <div className="fv-plan-actions">
          <a
            className="fv-btn fv-btn-primary"
            href={plan.place.directionsUri}
            target="_blank"
            rel="noreferrer"
          >
            <EnvironmentOutlined /> <span>Directions</span>
          </a>
          <a
            className="fv-btn fv-btn-default"
            href={`/api/v1/plans/${encodeURIComponent(plan.token)}/calendar.ics`}
            download="forkvote-plan.ics"
          >
            <CalendarOutlined /> <span>{DECISION_MESSAGES.addToCalendar}</span>
          </a>
          <PlainButton icon={<ShareAltOutlined />} onClick={share}>
            Share
          </PlainButton>
        </div>
        <CopyFeedback {...copier} />
        {plan.place.mapsUri && (
          <a className="fv-maps-link" href={plan.place.mapsUri} target="_blank" rel="noreferrer">
            Open in maps
          </a>
        )}
      </section>
    </div>
  );
}
