import { PUSH_MESSAGES, ROOM_EVENTS } from '@forkvote/contracts';
import {
  Participant,
  selfSignedCertificate,
  signUp,
  START_SEARCH,
  startTestStack,
  TestStack,
} from '@forkvote/testing';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { createServer, Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AddressInfo } from 'node:net';
// web-push's own encryption library, used here the other way round: as the browser, to decrypt.
import ece from 'http_ece';

/**
 * Web Push through the real stack, without the internet: a local push service (it speaks the protocol's
 * HTTPS: a POST per message, VAPID in Authorization, an aes128gcm body; its certificate is made here and
 * given to the stack as an extra CA) receives what rooms sends, and the test decrypts each message with the
 * subscription's keys, as the browser would.
 */
interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A browser's subscription: an endpoint on the local push service and its P-256 and auth keys. */
function browserSubscription(pushUrl: string, name: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    path: `/push/${name}`,
    json: {
      endpoint: `${pushUrl}/push/${name}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}

describe('web push', () => {
  let stack: TestStack;
  let pushService: Server;
  let pushUrl: string;
  const received: Received[] = [];

  const certs = mkdtempSync(join(tmpdir(), 'push-tls-'));

  beforeAll(async () => {
    const tls = selfSignedCertificate();
    writeFileSync(join(certs, 'cert.pem'), tls.cert);
    pushService = createServer(tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(req.url?.endsWith('/gone') ? 410 : 201).end();
      });
    });
    await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
    pushUrl = `https://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
    stack = await startTestStack({ PUSH_ENABLED: 'true', NODE_EXTRA_CA_CERTS: join(certs, 'cert.pem') });
  });

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => pushService?.close(resolve));
    rmSync(certs, { recursive: true, force: true });
  });

  const decrypt = (message: Received, sub: ReturnType<typeof browserSubscription>) =>
    JSON.parse(
      ece
        .decrypt(message.body, {
          version: 'aes128gcm',
          privateKey: sub.ecdh,
          authSecret: sub.auth.toString('base64url'),
        })
        .toString('utf8'),
    );

  const waitFor = async (test: () => boolean) => {
    for (let i = 0; i < 100 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  it('tells a member that voting started, encrypted for their browser alone, once, and never the host', async () => {
    const key = await new Participant(stack.url).get('/api/v1/waiting-room/push-key');
    expect(key.status).toBe(200);
    expect(Buffer.from(key.body.publicKey, 'base64url')).toHaveLength(65);

    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userId: 'x', userName: 'Hana' });
    const code = created.body.waitingRoom.waitingRoomId;
    await host.untilRelayed(code, created.body.userId, ROOM_EVENTS.userJoined, 1);
    const guest = new Participant(stack.url);
    const joined = await guest.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: 'Gus' });
    const stranger = new Participant(stack.url);

    const guestSub = browserSubscription(pushUrl, 'gus');
    const hostSub = browserSubscription(pushUrl, 'hana');
    expect(
      (await guest.post('/api/v1/waiting-room/push', { waitingRoomId: code, ...guestSub.json })).body,
    ).toEqual({ subscribed: true });
    expect(
      (await host.post('/api/v1/waiting-room/push', { waitingRoomId: code, ...hostSub.json })).status,
    ).toBe(200);
    // Someone outside the room cannot subscribe to it; a malformed subscription is a 400 with its message.
    expect(
      (await stranger.post('/api/v1/waiting-room/push', { waitingRoomId: code, ...guestSub.json })).status,
    ).toBe(403);
    const bad = await guest.post('/api/v1/waiting-room/push', {
      waitingRoomId: code,
      endpoint: 'not a url',
      keys: { p256dh: 'x', auth: 'y' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain(PUSH_MESSAGES.badSubscription);

    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${created.body.token}`,
    });
    expect(started.status).toBe(200);
    await waitFor(() => received.some((r) => r.path === guestSub.path));
    // A moment more, for anything that should not come.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const forGuest = received.filter((r) => r.path === guestSub.path);
    expect(forGuest).toHaveLength(1);
    expect(received.filter((r) => r.path === hostSub.path)).toHaveLength(0);
    const [message] = forGuest;
    expect(message.headers['content-encoding']).toBe('aes128gcm');
    expect(message.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    expect(message.headers.authorization).toContain(`k=${key.body.publicKey}`);
    expect(Number(message.headers.ttl)).toBeGreaterThan(0);
    expect(decrypt(message, guestSub)).toEqual({
      title: 'Voting has started',
      body: 'Say yes or no to 5 places. Your group is waiting.',
      url: '/voting',
      tag: expect.stringMatching(/^forkvote-/),
    });
    // Another member's keys cannot read it.
    expect(() => decrypt(message, hostSub)).toThrow();

    // The results: the guest's ballot closes the batch, so only the host is told.
    const ids = started.body.places.slice(0, 5).map((p: { id: string }) => p.id);
    for (const [p, userId] of [
      [host, created.body.userId],
      [guest, joined.body.userId],
    ] as const) {
      await p.patch('/api/v1/waiting-room/vote', {
        waitingRoomId: code,
        userId,
        votes: ids.map((placeId: string) => ({ placeId, voteType: 'up' })),
      });
    }
    await waitFor(() => received.some((r) => r.path === hostSub.path));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const forHost = received.filter((r) => r.path === hostSub.path);
    expect(forHost).toHaveLength(1);
    expect(decrypt(forHost[0], hostSub)).toMatchObject({ title: 'The results are in', url: '/results' });
    expect(received.filter((r) => r.path === guestSub.path)).toHaveLength(1);
  });

  it('tells the registered members of a saved group that they are invited again, and not the host', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const max = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Max Member')).cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userId: 'x', userName: 'Hana' });
    const code = created.body.waitingRoom.waitingRoomId;
    await max.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: 'Max' });
    const maxSub = browserSubscription(pushUrl, 'max-invite');
    const hostSub = browserSubscription(pushUrl, 'hana-invite');
    expect(
      (await max.post('/api/v1/waiting-room/push', { waitingRoomId: code, ...maxSub.json })).status,
    ).toBe(200);
    expect(
      (await host.post('/api/v1/waiting-room/push', { waitingRoomId: code, ...hostSub.json })).status,
    ).toBe(200);
    const saved = await host.post('/api/v1/groups', { waitingRoomId: code, name: 'Friday lunch' });
    expect(saved.status).toBe(200);
    await host.patch('/api/v1/waiting-room/leave', { waitingRoomId: code, userId: created.body.userId });

    const again = await host.post(`/api/v1/groups/${saved.body.groupId}/start`);
    expect(again.status).toBe(200);
    await waitFor(() => received.some((r) => r.path === maxSub.path));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const forMax = received.filter((r) => r.path === maxSub.path);
    expect(forMax).toHaveLength(1);
    expect(decrypt(forMax[0], maxSub)).toEqual({
      title: 'Your group is deciding where to eat',
      body: 'Hana invited you to Friday lunch',
      url: '/',
      tag: expect.stringMatching(/^forkvote-.+-invite$/),
    });
    expect(received.filter((r) => r.path === hostSub.path)).toHaveLength(0);
  });
});
