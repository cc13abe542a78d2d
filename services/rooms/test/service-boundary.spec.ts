import { AUTH, BILLING, PLACES, ROOMS } from '@forkvote/contracts';
import {
  callService,
  createServiceClient,
  loadConfig,
  PlatformConfig,
  StreamsClient,
} from '@forkvote/platform';
import { startTestStack, TestStack } from '@forkvote/testing';

/**
 * Every service validates what its callers send against the pattern's command class (the platform's RPC
 * pipe) and maps errors in one filter: a malformed request straight over the transport is a 400 with a
 * message, never a 500, whichever service it reaches.
 */
describe('service boundaries', () => {
  let stack: TestStack;
  let client: StreamsClient;

  beforeAll(async () => {
    stack = await startTestStack();
    client = createServiceClient(
      loadConfig(PlatformConfig, {
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_PREFIX: stack.redisPrefix,
      }),
    );
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => ({ statusCode: 200, message: 'answered' }),
      (err: { statusCode: number; message: string }) => ({
        statusCode: err.statusCode,
        message: err.message,
      }),
    );
  // Deliberately malformed: what a buggy or hostile caller could put on the transport.
  const bad = <T>(value: unknown) => value as T;

  it.each([
    [
      'rooms',
      () => callService(client, ROOMS.vote, bad({ roomId: 'not-a-uuid', userId: 'u' })),
      /roomId and userId/,
    ],
    [
      'rooms',
      () =>
        callService(
          client,
          ROOMS.start,
          bad({ roomId: '7c4b3a0e-52a4-4a34-9a4e-4b1a2b3c4d5e', userId: 'u', body: {} }),
        ),
      /location/,
    ],
    [
      'rooms',
      () => callService(client, ROOMS.join, bad({ body: { waitingRoomId: 'x', userName: 'A' } })),
      /Invalid waiting room ID/,
    ],
    ['auth', () => callService(client, AUTH.checkSession, bad({ jti: 'x', userId: 'y' })), /valid/],
    [
      'auth',
      () =>
        callService(
          client,
          AUTH.updateMe,
          bad({ userId: '7c4b3a0e-52a4-4a34-9a4e-4b1a2b3c4d5e', body: { name: null } }),
        ),
      /Name is required/,
    ],
    [
      'billing',
      () => callService(client, BILLING.entitlement, bad({ userId: 42 })),
      /A valid userId is required/,
    ],
    [
      'billing',
      () =>
        callService(
          client,
          BILLING.createCheckout,
          bad({ userId: '7c4b3a0e-52a4-4a34-9a4e-4b1a2b3c4d5e', email: 'x', plan: 'weekly' }),
        ),
      /email|plan/,
    ],
    ['places', () => callService(client, PLACES.search, bad({ latitude: 'north' })), /location/],
  ])('%s refuses a malformed request with 400 (%#)', async (_service, call, message) => {
    const answer = await refusal(call());
    expect(answer.statusCode).toBe(400);
    expect(answer.message).toMatch(message);
  });
});
