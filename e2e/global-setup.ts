import type { FullConfig } from '@playwright/test';

import { startTestStack } from '@forkvote/testing/src/stack';

/** Starts the stack once for all e2e tests (unless E2E_BASE_URL points at a running one) and stops it after. */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) return async () => undefined;
  const stack = await startTestStack();
  await stack.waitHealthy(90_000);
  process.env.E2E_BASE_URL = stack.url;
  return async () => {
    await stack.stop();
  };
}
