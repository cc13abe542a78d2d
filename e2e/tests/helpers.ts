import { expect, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ARTIFACTS = join(__dirname, '..', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

let counter = 0;
export function uniqueEmail(name: string): string {
  counter += 1;
  return `${name}.${Date.now().toString(36)}.${counter}@example.com`;
}

/** Registers through the UI, completes the offline checkout and lands on the success page. */
export async function registerThroughUi(
  page: Page,
  options: { name: string; email: string; password: string; plan?: string },
) {
  await page.goto(`/register${options.plan ? `?plan=${options.plan}` : ''}`);
  await page.getByLabel('Full name').fill(options.name);
  await page.getByLabel('Email').fill(options.email);
  await page.getByLabel('Password').fill(options.password);
  await page.getByRole('checkbox', { name: /I am at least 18/ }).check();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('TEST MODE')).toBeVisible();
  await page.getByRole('button', { name: /Start free trial|Pay \$/ }).click();
  await expect(page.getByText('Registration Complete')).toBeVisible();
}

export async function loginThroughUi(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByTestId('header-user-name')).toBeVisible();
}
