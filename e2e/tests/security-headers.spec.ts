import { expect, Page, test } from '@playwright/test';
import { loginThroughUi, registerThroughUi, uniqueEmail } from './helpers';

/**
 * The built app and the local checkout and portal pages run under the gateway's Content Security Policy
 * with no violation: every one Chromium reports (console or securitypolicyviolation event) fails the test.
 */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text()))
      violations.push(message.text());
  });
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text));
  // Runs in the page (a string: the e2e project compiles without the DOM's types).
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) =>
      window.__reportCspViolation(event.violatedDirective + ' blocked ' + event.blockedURI));`,
  });
  return violations;
}

test('the app, the local checkout and the portal run under the CSP with no violation', async ({ page }) => {
  const violations = await watchCsp(page);
  const home = await page.goto('/');
  const csp = (await home!.allHeaders())['content-security-policy'];
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("script-src 'self'");
  await expect(page.getByText('Never argue about where to eat again')).toBeVisible();

  for (const path of ['/pricing', '/how-it-works', '/join-session', '/login', '/help']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }

  // The API docs (Swagger UI, on outside production) render too.
  await page.goto('/api/docs');
  await expect(page.getByText('ForkVote API').first()).toBeVisible();

  const email = uniqueEmail('csp');
  // Registration, the local checkout page and its form post, then the success page.
  await registerThroughUi(page, { name: 'Cass Policy', email, password: 'secret12' });
  await loginThroughUi(page, email, 'secret12');
  await page.goto('/profile');
  await page.getByRole('tab', { name: 'Billing Information' }).click();
  // The local customer portal and its form post.
  await page.goto('/api/v1/billing/portal');
  await expect(page.getByText('TEST MODE')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await page.waitForLoadState('networkidle');

  expect(violations).toEqual([]);
});
