import { LocalCheckoutView, StripeSubscriptionShape } from '@forkvote/contracts';
import escape from 'escape-html';

/** The offline payment provider's pages. Plain server-rendered HTML: they stand in for Stripe's own. */

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The brand's fork-and-knife icon, as the web app's header draws it. */
const LOGO = `<svg viewBox="0 0 32 32" role="img" aria-label="ForkVote logo"><rect width="32" height="32" rx="8" fill="currentColor"/><path fill="#fff" d="M10 6h1.5v7a1.5 1.5 0 0 0 1.5 1.5V6h1.5v8.5A1.5 1.5 0 0 0 16 13V6h1.5v7a3.5 3.5 0 0 1-2.5 3.4V26h-3v-9.6A3.5 3.5 0 0 1 10 13zm11 0c1.7 0 3 2.7 3 7 0 2-1 3.3-2 3.6V26h-3V6z"/></svg>`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · ForkVote (test mode)</title>
<style>
  body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; background: #f6f3f0; margin: 0; color: #1f2328; }
  .banner { background: #fff3bf; color: #5c4400; text-align: center; padding: 10px; font-weight: 600; border-bottom: 1px solid #f0d878; }
  *, *::before, *::after { box-sizing: border-box; }
  header { max-width: 440px; margin: 24px auto 0; padding: 0 16px; }
  .logo { display: inline-flex; align-items: center; gap: 8px; color: #c2410c; text-decoration: none; font-size: 20px; font-weight: 800; }
  .logo svg { width: 32px; height: 32px; } .logo .vote { color: #1f2328; }
  main { max-width: 440px; margin: 16px auto 48px; background: #fff; border-radius: 12px; padding: 32px; box-shadow: 0 4px 24px rgba(0,0,0,.08); }
  @media (max-width: 480px) { main { margin: 12px 12px 32px; padding: 20px; } .price { font-size: 28px; } }
  h1 { font-size: 22px; margin: 0 0 8px; } .price { font-size: 32px; font-weight: 800; margin: 16px 0 4px; }
  .muted { color: #5c6470; } dl { display: grid; grid-template-columns: auto 1fr; gap: 6px 16px; }
  dt { color: #5c6470; } dd { margin: 0; font-weight: 500; overflow-wrap: anywhere; min-width: 0; }
  .actions { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 24px; } form { margin: 0; }
  button, a.button { font: inherit; padding: 10px 18px; border-radius: 8px; border: 1px solid #d0d7de; background: #fff; color: #1f2328; cursor: pointer; text-decoration: none; display: inline-block; }
  button.primary { background: #c2410c; border-color: #c2410c; color: #fff; font-weight: 600; }
</style></head>
<body><div class="banner" role="note">TEST MODE — no card is charged. This page stands in for Stripe Checkout.</div>
<header><a class="logo" href="/" aria-label="ForkVote home">${LOGO}<span>Fork<span class="vote">Vote</span></span></a></header>
<main>${body}</main></body></html>`;
}

export function checkoutPage(view: LocalCheckoutView): string {
  const period = view.interval ? ` per ${view.interval}` : ' one time';
  const trial =
    view.trialDays > 0
      ? `<p class="muted">${view.trialDays}-day free trial, then ${dollars(view.amountCents)}${period}.</p>`
      : '';
  if (view.status !== 'open') {
    return page(
      'Checkout finished',
      `<h1>This checkout is finished</h1><p class="muted">Nothing more to do here.</p><p><a href="/">Back to ForkVote</a></p>`,
    );
  }
  return page(
    'Checkout',
    `<h1>ForkVote ${escape(view.plan[0].toUpperCase() + view.plan.slice(1))}</h1>
<div class="price">${dollars(view.amountCents)}<span class="muted" style="font-size:16px;font-weight:400">${period}</span></div>
${trial}
<dl><dt>Account</dt><dd>${escape(view.email)}</dd></dl>
<div class="actions">
  <form method="post" action="/api/v1/billing/checkout/${view.id}/complete"><button class="primary" type="submit">${view.trialDays > 0 ? 'Start free trial' : `Pay ${dollars(view.amountCents)}`}</button></form>
  <form method="post" action="/api/v1/billing/checkout/${view.id}/cancel"><button type="submit">Cancel</button></form>
</div>`,
  );
}

export function portalPage(subscription: StripeSubscriptionShape | undefined): string {
  if (!subscription || (subscription.status !== 'active' && subscription.status !== 'trialing')) {
    return page(
      'Billing',
      `<h1>Billing</h1><p class="muted">You have no active subscription.</p><p><a href="/profile">Back to your profile</a></p>`,
    );
  }
  const item = subscription.items.data[0];
  return page(
    'Billing',
    `<h1>Your subscription</h1>
<dl>
  <dt>Status</dt><dd>${escape(subscription.status)}</dd>
  <dt>Plan</dt><dd>${dollars(item.plan.amount)} per ${escape(item.plan.interval)}</dd>
  <dt>Renews</dt><dd>${new Date(item.current_period_end * 1000).toDateString()}</dd>
</dl>
<div class="actions">
  <form method="post" action="/api/v1/billing/portal/cancel"><button type="submit">Cancel subscription</button></form>
  <a class="button" href="/profile">Back to profile</a>
</div>`,
  );
}
