import {
  defaultTypeFilter,
  MESSAGES,
  NO_LIMITS,
  PLAN_CATALOG,
  PLANS,
  ZIPCODE_PATTERN,
  type TypeFilter,
  type Plan,
  type PrivateLimits,
} from '@forkvote/contracts';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Form,
  Input,
  Radio,
  Select,
  Skeleton,
  Space,
  Tabs,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { api, errorMessage, useMe, useStripeInformation } from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { useAuth } from '../../auth/auth-context';
import { FormStatusAlert, useFormStatus } from '../../components/form-status';
import { TypeFilterEditor } from '../../components/type-filter-editor';
import { planPriceLabel } from '../static/pricing-page';
import { HistoryTab } from './history-tab';
import { StartWithGroupList } from '../../room/saved-groups';
import { limitFields } from '../../room/private-limits';
import { billingView } from './billing-view';

const formatDate = (d: Date | null) =>
  d ? d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }) : '—';

interface Draft {
  name: string;
  defaultZipcode: string;
  contactMeForUserFeedback: boolean;
  filter: TypeFilter;
  limits: PrivateLimits;
}

export function ProfilePage() {
  const auth = useAuth();
  const { data: me, mutate } = useMe();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [status, setStatus] = useFormStatus();
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState('personal');

  const saved = useMemo<Draft | null>(
    () =>
      me
        ? {
            name: me.name,
            defaultZipcode: me.defaultZipcode ?? '',
            contactMeForUserFeedback: me.contactMeForUserFeedback,
            filter: defaultTypeFilter(me),
            limits: me.limits ?? NO_LIMITS,
          }
        : null,
    [me],
  );
  useEffect(() => setDraft(saved), [saved]);

  if (!draft || !saved) return <Skeleton active />;

  const changed = JSON.stringify(draft) !== JSON.stringify(saved);
  const valid =
    draft.name.trim() !== '' && (draft.defaultZipcode === '' || ZIPCODE_PATTERN.test(draft.defaultZipcode));
  const included = draft.filter.included.filter((t) => t !== 'restaurant');

  const save = async () => {
    setSaving(true);
    try {
      await mutate(
        await api.updateMe({
          name: draft.name.trim(),
          defaultZipcode: draft.defaultZipcode,
          contactMeForUserFeedback: draft.contactMeForUserFeedback,
          restaurantTypesToInclude: included,
          restaurantTypesToExclude: draft.filter.excluded,
          limits: draft.limits,
        }),
        { revalidate: false },
      );
      await auth.refresh();
      setStatus({ ok: true, text: MESSAGES.saveSucceeded });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) await auth.refresh();
      setStatus({ ok: false, text: errorMessage(err, MESSAGES.saveFailed) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="fv-page">
      <Typography.Title>Your Profile</Typography.Title>
      <FormStatusAlert status={status} />
      <Card>
        <Tabs
          className="fv-profile-tabs"
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'personal',
              label: 'Personal Information',
              children: (
                <Form layout="vertical" className="fv-narrow">
                  <Form.Item
                    label="Name"
                    htmlFor="profile-name"
                    validateStatus={draft.name.trim() ? '' : 'error'}
                    help={draft.name.trim() ? undefined : MESSAGES.nameRequired}
                  >
                    <Input
                      id="profile-name"
                      value={draft.name}
                      onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                      autoComplete="name"
                    />
                  </Form.Item>
                  <Form.Item label="Email" htmlFor="profile-email">
                    <Input id="profile-email" value={me?.email} disabled />
                  </Form.Item>
                  <Form.Item
                    label="Default zip code"
                    htmlFor="profile-zip"
                    validateStatus={
                      draft.defaultZipcode === '' || ZIPCODE_PATTERN.test(draft.defaultZipcode) ? '' : 'error'
                    }
                    help={
                      draft.defaultZipcode === '' || ZIPCODE_PATTERN.test(draft.defaultZipcode)
                        ? undefined
                        : MESSAGES.invalidZipcode
                    }
                  >
                    <Input
                      id="profile-zip"
                      value={draft.defaultZipcode}
                      maxLength={5}
                      inputMode="numeric"
                      onChange={(e) => setDraft({ ...draft, defaultZipcode: e.target.value.trim() })}
                    />
                  </Form.Item>
                  <Checkbox
                    checked={draft.contactMeForUserFeedback}
                    onChange={(e) => setDraft({ ...draft, contactMeForUserFeedback: e.target.checked })}
                  >
                    You may contact me for feedback about ForkVote
                  </Checkbox>
                </Form>
              ),
            },
            { key: 'billing', label: 'Billing Information', children: <BillingTab /> },
            {
              key: 'preferences',
              label: 'Restaurant Preferences',
              children: (
                <div className="fv-narrow">
                  <Typography.Paragraph type="secondary">
                    These are the defaults of the filters when you host a session.
                  </Typography.Paragraph>
                  <TypeFilterEditor
                    value={draft.filter}
                    onChange={(filter) => setDraft({ ...draft, filter })}
                  />
                  <LimitsEditor value={draft.limits} onChange={(limits) => setDraft({ ...draft, limits })} />
                </div>
              ),
            },
            { key: 'history', label: 'History', children: <HistoryTab /> },
            { key: 'groups', label: 'Groups', children: <StartWithGroupList manage /> },
          ]}
        />
        {/* Nothing on the billing, history or groups tab is edited here. */}
        {tab !== 'billing' && tab !== 'history' && tab !== 'groups' && (
          <Space className="fv-save-row">
            <Button type="primary" onClick={save} disabled={!changed || !valid} loading={saving}>
              Save Changes
            </Button>
            {changed && !valid && <Typography.Text type="danger">{MESSAGES.fillAllFields}</Typography.Text>}
          </Space>
        )}
      </Card>
    </div>
  );
}

/** Private limits (docs/groups.md): applied in every session until changed in its waiting room. */
function LimitsEditor({
  value,
  onChange,
}: {
  value: PrivateLimits;
  onChange: (limits: PrivateLimits) => void;
}) {
  return (
    <section className="fv-profile-limits" aria-labelledby="profile-limits-title">
      <Typography.Title level={2} id="profile-limits-title" className="fv-profile-limits-title">
        Private limits
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Only you see these. In every session you join, places that don’t fit them are left out before voting.
      </Typography.Paragraph>
      <Form layout="vertical" className="fv-limits-form">
        {limitFields(value).map((field) => (
          <Form.Item key={field.name} label={field.label} htmlFor={`profile-${field.name}`}>
            <Select
              id={`profile-${field.name}`}
              value={field.value}
              options={field.options}
              onChange={(v) => onChange({ ...value, ...field.change(v) })}
            />
          </Form.Item>
        ))}
      </Form>
    </section>
  );
}

function BillingTab() {
  const { data: info, isLoading } = useStripeInformation();
  const { data: me } = useMe();
  const [plan, setPlan] = useState<Plan>('monthly');
  const [error, setError] = useState<string | null>(null);
  if (isLoading) return <Skeleton active />;
  const view = billingView(info, me);

  const subscribe = async () => {
    try {
      const { stripeCheckoutUrl } = await api.subscribe(plan);
      window.location.assign(stripeCheckoutUrl);
    } catch (err) {
      setError(errorMessage(err, 'Could not start the checkout. Please try again.'));
    }
  };

  const manage = info?.customerPortalUrl ? (
    <a href={info.customerPortalUrl}>
      <Button>Manage billing</Button>
    </a>
  ) : null;

  return (
    <div className="fv-narrow" data-testid="billing-state" data-state={view.state}>
      {view.state === 'lifetime' && (
        <Descriptions column={1} bordered size="small" title="Lifetime access">
          <Descriptions.Item label="Plan">Lifetime</Descriptions.Item>
          <Descriptions.Item label="Purchased">{formatDate(view.purchasedAt)}</Descriptions.Item>
        </Descriptions>
      )}
      {view.state === 'active' && (
        <Descriptions column={1} bordered size="small" title="Active subscription" extra={manage}>
          <Descriptions.Item label="Member since">{formatDate(view.memberSince)}</Descriptions.Item>
          <Descriptions.Item label="Type">{view.type}</Descriptions.Item>
          <Descriptions.Item label="Amount">{view.amount}</Descriptions.Item>
          {view.endsAt ? (
            <Descriptions.Item label="Ends on">{formatDate(view.endsAt)}</Descriptions.Item>
          ) : (
            <Descriptions.Item label="Next payment">{formatDate(view.nextPaymentDate)}</Descriptions.Item>
          )}
        </Descriptions>
      )}
      {view.state === 'trialing' && (
        <Descriptions column={1} bordered size="small" title="Free trial" extra={manage}>
          <Descriptions.Item label="Plan">{view.type}</Descriptions.Item>
          <Descriptions.Item label="Trial started">{formatDate(view.trialStart)}</Descriptions.Item>
          <Descriptions.Item label="Trial ends">{formatDate(view.trialEnd)}</Descriptions.Item>
          <Descriptions.Item label="Amount to be charged">{view.amount}</Descriptions.Item>
        </Descriptions>
      )}
      {(view.state === 'canceled' || view.state === 'none') && (
        <Space direction="vertical" size="middle">
          {view.state === 'canceled' ? (
            <Alert
              type="warning"
              showIcon
              message={`Your subscription was canceled on ${formatDate(view.canceledAt)}.`}
            />
          ) : (
            <Alert type="info" showIcon message="You have no plan yet." />
          )}
          <Typography.Text>
            {view.state === 'canceled'
              ? 'Choose a plan to host sessions again:'
              : 'Choose a plan to host sessions:'}
          </Typography.Text>
          <Radio.Group value={plan} onChange={(e) => setPlan(e.target.value as Plan)}>
            <Space direction="vertical">
              {PLANS.map((p) => (
                <Radio key={p} value={p}>
                  {PLAN_CATALOG[p].name} — {planPriceLabel(p)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
          {error && <Alert type="error" message={error} />}
          <Button type="primary" onClick={subscribe}>
            Subscribe
          </Button>
        </Space>
      )}
    </div>
  );
}
