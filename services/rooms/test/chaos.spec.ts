import { ROOM_EVENTS } from '@forkvote/contracts';
import { roomEventKeys } from '@forkvote/room-events';
import { Participant, signUp, START_SEARCH, startTestStack, TestStack } from '@forkvote/testing';
import Redis from 'ioredis';
import { randomInt, randomUUID } from 'node:crypto';

const ROUNDS = Number(process.env.CHAOS_ROUNDS ?? 20);
const ROOMS_PER_ROUND = 12;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Nothing lost, nothing twice: in each round, 12 rooms each wait for one last ballot; all 12 are sent at
 * once and the rooms process is SIGKILLed 0–20 ms later, then started again. Every call must end 2xx after
 * its own retries (same Idempotency-Key), and every room must reach results with exactly one
 * BALLOTS_SUBMITTED (and one USER_VOTED for that ballot) in its event log.
 */
describe('rooms killed under the last ballots', () => {
  let stack: TestStack;
  let redis: Redis;
  const hosts: Participant[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    for (let i = 0; i < ROOMS_PER_ROUND; i++) {
      hosts.push(new Participant(stack.url, (await signUp(stack.url, 'lifetime', `Chaos Host${i}`)).cookie));
    }
  }, 120_000);

  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  /** A room whose host has voted and whose guest has not: one ballot to go. */
  async function roomWaitingForOneBallot(host: Participant) {
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Host' });
    expect(created.status).toBe(200);
    const code = created.body.waitingRoom.waitingRoomId as string;
    const roomId = JSON.parse(Buffer.from(created.body.token.split('.')[1], 'base64url').toString()).roomId;
    const guest = new Participant(stack.url);
    const joined = await guest.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: 'Guest' });
    expect(joined.status).toBe(200);
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${created.body.token}`,
    });
    expect(started.status).toBe(200);
    const votes = (started.body.places as { id: string }[])
      .slice(0, 5)
      .map((p) => ({ placeId: p.id, voteType: 'up' }));
    const hostVote = await host.patch('/api/v1/waiting-room/vote', {
      waitingRoomId: code,
      userId: created.body.userId,
      votes,
    });
    expect(hostVote.status).toBe(200);
    return { roomId, code, guest, guestId: joined.body.userId as string, votes };
  }

  /** Sends the ballot, and again with the same Idempotency-Key until it is answered 2xx. */
  async function voteUntilAnswered(room: Awaited<ReturnType<typeof roomWaitingForOneBallot>>) {
    const key = randomUUID();
    const deadline = Date.now() + 45_000;
    const statuses: number[] = [];
    for (;;) {
      const res = await room.guest
        .patch(
          '/api/v1/waiting-room/vote',
          { waitingRoomId: room.code, userId: room.guestId, votes: room.votes },
          { 'Idempotency-Key': key },
        )
        .catch(() => ({ status: 0, body: {} }));
      statuses.push(res.status);
      if (res.status >= 200 && res.status < 300) return { statuses, body: res.body };
      if (res.status >= 400 && res.status < 500) throw new Error(`vote refused: ${JSON.stringify(res.body)}`);
      if (Date.now() > deadline) throw new Error(`vote never answered: ${statuses.join(',')}`);
      await sleep(250);
    }
  }

  /**
   * The room as its guest reads it. Rooms may still be starting again after the kill: its 503 ("did not
   * answer in time") is read again, as the web app does, until rooms answers.
   */
  async function snapshotOf(room: Awaited<ReturnType<typeof roomWaitingForOneBallot>>) {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const res = await room.guest.get('/api/v1/waiting-room/current');
      if (res.status < 500 || Date.now() > deadline) return res;
      await sleep(250);
    }
  }

  async function eventsOf(roomId: string, event: string): Promise<number> {
    const entries = (await redis.xrange(roomEventKeys.log(stack.redisPrefix, roomId), '-', '+')) as [
      string,
      string[],
    ][];
    return entries.filter(([, fields]) => fields[1] === event).length;
  }

  it(`keeps every last ballot and publishes each room's results once, over ${ROUNDS} rounds`, async () => {
    const retried: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rooms = await Promise.all(hosts.map((host) => roomWaitingForOneBallot(host)));
      const killAfter = randomInt(0, 21);
      const votes = Promise.all(rooms.map((room) => voteUntilAnswered(room)));
      await sleep(killAfter);
      await stack.stopOne('rooms', 'SIGKILL');
      stack.startOne('rooms');
      const answers = await votes;
      retried.push(answers.filter((a) => a.statuses.length > 1).length);
      for (const answer of answers) expect(answer.body).toMatchObject({ voted: true });

      for (const room of rooms) {
        const deadline = Date.now() + 20_000;
        while ((await eventsOf(room.roomId, ROOM_EVENTS.ballotsSubmitted)) === 0 && Date.now() < deadline) {
          await sleep(100);
        }
        expect({
          round,
          killAfter,
          ballots: await eventsOf(room.roomId, ROOM_EVENTS.ballotsSubmitted),
        }).toEqual({
          round,
          killAfter,
          ballots: 1,
        });
        expect(await eventsOf(room.roomId, ROOM_EVENTS.userVoted)).toBe(2);
        const snapshot = await snapshotOf(room);
        expect({ status: snapshot.status, state: snapshot.body.waitingRoom?.state }).toEqual({
          status: 200,
          state: 'results',
        });
      }
    }
    console.log(
      `chaos: ${ROUNDS} rounds of ${ROOMS_PER_ROUND} rooms; calls that needed a retry per round: ${retried.join(' ')}`,
    );
  }, 900_000);
});
