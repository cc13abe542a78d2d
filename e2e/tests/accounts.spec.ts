import { expect, test } from '@playwright/test';
import { loginThroughUi, registerThroughUi, shot, uniqueEmail } from './helpers';

test('register with a plan → offline checkout → success → login → profile shows the trial', async ({
  page,
}) => {
  const email = uniqueEmail('ui');
  await page.goto('/pricing');
  await shot(page, 'pricing');
  await registerThroughUi(page, { name: 'Uma Interface', email, password: 'secret12', plan: 'yearly' });
  await shot(page, 'payment-success');
  await page.getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await loginThroughUi(page, email, 'secret12');
  await expect(page.getByTestId('header-user-name')).toHaveText('Uma Interface');
  await expect(page.getByRole('link', { name: 'Create a Session' }).first()).toBeVisible();

  await page.goto('/profile');
  await expect(page.getByRole('tab', { name: 'Personal Information' })).toBeVisible();
  await shot(page, 'profile-personal');
  await page.getByRole('tab', { name: 'Billing Information' }).click();
  await expect(page.getByTestId('billing-state')).toHaveAttribute('data-state', 'trialing');
  await expect(page.getByText('Amount to be charged')).toBeVisible();
  await expect(page.getByText('$19.99')).toBeVisible();
  // Nothing on the billing tab is edited by Save.
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  await shot(page, 'profile-billing-trialing');

  // Save is enabled only with a change; an invalid zip says so.
  await page.getByRole('tab', { name: 'Personal Information' }).click();
  const save = page.getByRole('button', { name: 'Save Changes' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Default zip code').fill('123');
  await expect(page.getByText('Invalid zipcode')).toBeVisible();
  await expect(page.getByText('Please fill out all fields')).toBeVisible();
  await page.getByLabel('Default zip code').fill('10001');
  await save.click();
  await expect(page.getByText('Changes saved successfully')).toBeVisible();

  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();
});

test('a wrong password shows the SPEC message', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(uniqueEmail('nobody'));
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toContainText('Login failed. Please try again.');
  await shot(page, 'login-failed');
});

test('registration validates fields with the SPEC messages', async ({ page }) => {
  await page.goto('/register?plan=bogus');
  await expect(page.getByRole('radio', { name: /Monthly/ })).toBeChecked();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('Please enter your full name')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters long')).toBeVisible();
  await expect(page.getByText('You must accept the terms of service to continue')).toBeVisible();
  await shot(page, 'register-validation');
});

test('reset a password through the development outbox link, then log in with the new one', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('reset');
  await registerThroughUi(page, { name: 'Rita Reset', email, password: 'oldpass1' });
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Success! Check your email for a link to reset your password.',
  );
  await shot(page, 'forgot-password');

  const outbox = await (await request.get('/api/v1/dev/outbox')).json();
  const mail = outbox.find((m: { to: string }) => m.to === email);
  const link = /(http\S+reset-password\?token=\S+)/.exec(mail.text)![1];
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page.getByLabel('New password', { exact: true }).fill('newpass1');
  await page.getByLabel('Confirm new password').fill('different');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill('newpass1');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Password reset successful. Click here to login.')).toBeVisible();
  await shot(page, 'reset-password-done');
  await loginThroughUi(page, email, 'newpass1');
});

test('reset-password without a token goes to forgot-password; guards send visitors to login', async ({
  page,
}) => {
  await page.goto('/reset-password');
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/create-session');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/waiting-room');
  await expect(page).toHaveURL(/\/login$/);
});

test('static pages render', async ({ page }) => {
  for (const [path, text] of [
    ['/about', 'Our mission'],
    ['/how-it-works', 'Invite Friends and pick what sounds good'],
    ['/terms', 'Version 1.0'],
    ['/privacy', 'Version 1.0'],
    ['/help', 'How do my friends join?'],
    ['/contact', 'Contact'],
    ['/feedback', 'Feedback'],
    ['/payment/cancel', 'Payment Unsuccessful'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(text).first()).toBeVisible();
    await shot(page, `page${path.replace(/\//g, '-')}`);
  }
});

test('the mobile menu is a side sheet at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const sheet = page.getByRole('dialog');
  await expect(sheet.getByRole('link', { name: 'Pricing' })).toBeVisible();
  await expect(sheet.getByRole('link', { name: 'Start Your Free Trial' })).toBeVisible();
  await page.waitForTimeout(500); // let the sheet finish sliding in before the picture
  await shot(page, 'mobile-menu');
});

test('feedback is sent and thanked', async ({ page }) => {
  await page.goto('/feedback');
  await page.getByRole('button', { name: 'Send Feedback' }).click();
  await expect(page.getByText('Please enter a subject')).toBeVisible();
  await page.getByLabel('Name').fill('Fay');
  await page.getByLabel('Email').fill('fay@example.com');
  await page.getByLabel('Subject').fill('Lovely');
  await page.getByLabel('Message').fill('We found a taco place in a minute.');
  await page.getByRole('button', { name: 'Send Feedback' }).click();
  await expect(page.getByRole('alert')).toContainText('Thank you for your feedback!');
});
