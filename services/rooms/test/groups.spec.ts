import { GROUP_MESSAGES, invitationText, MESSAGES, ROOM_EVENTS, SavedGroup } from '@forkvote/contracts';
import { Participant, signUp, START_SEARCH, startTestStack, TestStack } from '@forkvote/testing';

/**
 * Saved groups through the gateway against the real stack: a host keeps the people of a session, starts
 * with them again (its rule, its recent picks), its registered members find the invitation on their home
 * page, and can leave; the owner can remove them. Guests are names only and never see a group.
 */
describe('saved groups', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('keeps a session’s people, starts with them again and invites its registered members', async () => {
    const hana = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const max = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Max Member')).cookie);
    const ana = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Ana Member')).cookie);
    const gus = new Participant(stack.url);

    // A first session, decided under "most people agree": one place everyone approves.
    const created = await hana.post('/api/v1/waiting-room/create', { userId: 'x', userName: 'Hana' });
    const code = created.body.waitingRoom.waitingRoomId as string;
    const hostAuth = { Authorization: `Bearer ${created.body.token}` };
    const ids: Record<string, string> = { hana: created.body.userId };
    for (const [name, p] of [
      ['Max', max],
      ['Ana', ana],
      ['Gus', gus],
    ] as const) {
      const joined = await p.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: name });
      expect(joined.status).toBe(200);
      ids[name.toLowerCase()] = joined.body.userId;
    }
    await hana.patch(
      '/api/v1/waiting-room/rule',
      { waitingRoomId: code, decisionRule: 'majority' },
      hostAuth,
    );
    const started = await hana.post('/api/v1/waiting-room/start', START_SEARCH, hostAuth);
    expect(started.status).toBe(200);
    const batch: string[] = started.body.places.slice(0, 5).map((p: { id: string }) => p.id);
    const chosen = batch[2];
    for (const [p, userId] of [
      [hana, ids.hana],
      [max, ids.max],
      [ana, ids.ana],
      [gus, ids.gus],
    ] as const) {
      const voted = await p.patch('/api/v1/waiting-room/vote', {
        waitingRoomId: code,
        userId,
        votes: batch.map((placeId) => ({ placeId, voteType: placeId === chosen ? 'up' : 'down' })),
      });
      expect(voted.status).toBe(200);
    }

    // Only the host saves it, with a name.
    expect((await max.post('/api/v1/groups', { waitingRoomId: code, name: 'Mine' })).body.message).toBe(
      GROUP_MESSAGES.hostOnly,
    );
    for (const [name, message] of [
      ['   ', GROUP_MESSAGES.nameRequired],
      ['x'.repeat(41), GROUP_MESSAGES.nameTooLong],
    ]) {
      const res = await hana.post('/api/v1/groups', { waitingRoomId: code, name });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    expect((await gus.post('/api/v1/groups', { waitingRoomId: code, name: 'Guests cannot' })).status).toBe(
      401,
    );
    const saved = await hana.post('/api/v1/groups', {
      waitingRoomId: code.toLowerCase(),
      name: ' Friday lunch ',
    });
    expect(saved.status).toBe(200);
    const group = saved.body as SavedGroup;
    // It keeps where and what the session searched, for its next rooms.
    expect(group.search).toMatchObject({
      latitude: START_SEARCH.latitude,
      longitude: START_SEARCH.longitude,
      radiusInMeters: START_SEARCH.radiusInMeters,
      includedTypes: ['restaurant'],
      rankPreference: 'popularity',
    });
    expect(group.search).not.toHaveProperty('maxResultCount');
    expect(group).toMatchObject({
      name: 'Friday lunch',
      ownerName: 'Hana',
      isOwner: true,
      decisionRule: 'majority',
    });
    expect(group.members.map((m) => [m.userName, m.registered, m.isOwner])).toEqual([
      ['Hana', true, true],
      ['Max', true, false],
      ['Ana', true, false],
      ['Gus', false, false],
    ]);
    // Members see it too, as members.
    const maxGroups = (await max.get('/api/v1/groups')).body.groups as SavedGroup[];
    expect(maxGroups.map((g) => [g.name, g.isOwner])).toEqual([['Friday lunch', false]]);
    expect(maxGroups[0].members.find((m) => m.isMe)?.userName).toBe('Max');
    expect((await gus.get('/api/v1/groups')).status).toBe(401);
    await hana.patch('/api/v1/waiting-room/leave', { waitingRoomId: code, userId: ids.hana });

    // Start with this group: a new room, with its rule, and an invitation for Max and Ana.
    expect((await max.post(`/api/v1/groups/${group.groupId}/start`)).body.message).toBe(
      GROUP_MESSAGES.ownerOnly,
    );
    const again = await hana.post(`/api/v1/groups/${group.groupId}/start`);
    expect(again.status).toBe(200);
    expect(again.body.waitingRoom.decisionRule).toBe('majority');
    expect(again.headers['set-cookie']).toBeDefined();
    const newCode = again.body.waitingRoom.waitingRoomId as string;
    expect(newCode).not.toBe(code);
    const invited = await max.get('/api/v1/me/invitations');
    expect(invited.body.invitations).toEqual([
      {
        waitingRoomId: newCode,
        groupId: group.groupId,
        groupName: 'Friday lunch',
        hostName: 'Hana',
        invitedAt: expect.any(String),
      },
    ]);
    expect(invitationText('Hana', 'Friday lunch')).toBe('Hana invited you to Friday lunch');
    expect((await hana.get('/api/v1/me/invitations')).body.invitations).toEqual([]);
    // The room's stream says the group was invited, with a count and no one's id.
    await hana.untilRelayed(newCode, again.body.userId, ROOM_EVENTS.groupInvited, 1);
    const snapshot = await hana.get('/api/v1/waiting-room/current');
    expect(snapshot.body.waitingRoom.decisionRule).toBe('majority');

    // Joining takes the card away; dismissing does too.
    expect(
      (await max.patch('/api/v1/waiting-room/join', { waitingRoomId: newCode, userName: 'Max' })).status,
    ).toBe(200);
    expect((await max.get('/api/v1/me/invitations')).body.invitations).toEqual([]);
    expect((await ana.get('/api/v1/me/invitations')).body.invitations).toHaveLength(1);
    expect((await ana.delete(`/api/v1/me/invitations/${newCode.toLowerCase()}`)).status).toBe(200);
    expect((await ana.get('/api/v1/me/invitations')).body.invitations).toEqual([]);
    expect((await ana.delete(`/api/v1/me/invitations/${newCode}`)).status).toBe(404);

    // The group's first session chose `chosen`: marked in the group's room.
    const restarted = await hana.post(
      '/api/v1/waiting-room/start',
      { ...START_SEARCH, preferNewPlaces: true },
      { Authorization: `Bearer ${again.body.token}` },
    );
    expect(restarted.status).toBe(200);
    const places = restarted.body.places as { id: string; lastPickedAt?: string }[];
    expect(places.find((p) => p.id === chosen)?.lastPickedAt).toEqual(expect.any(String));
    expect(places.at(-1)!.id).toBe(chosen);

    // A control character is no name.
    const control = await hana.post('/api/v1/groups', { waitingRoomId: code, name: 'Friday\u0007lunch' });
    expect(control.status).toBe(400);
    expect(control.body.message).toBe(MESSAGES.controlCharacters);

    // Members leave; the owner removes (and their open invitations go); nobody else removes anyone; the
    // owner stays.
    const owner = group.members.find((m) => m.isOwner)!;
    const maxMember = group.members.find((m) => m.userName === 'Max')!;
    const anaMember = group.members.find((m) => m.userName === 'Ana')!;
    expect(
      (await max.delete(`/api/v1/groups/${group.groupId}/members/${anaMember.memberId}`)).body.message,
    ).toBe(GROUP_MESSAGES.ownerOnly);
    expect(
      (await hana.delete(`/api/v1/groups/${group.groupId}/members/${owner.memberId}`)).body.message,
    ).toBe(GROUP_MESSAGES.ownerStays);
    const third = await hana.post(`/api/v1/groups/${group.groupId}/start`);
    expect(third.status).toBe(200);
    expect((await ana.get('/api/v1/me/invitations')).body.invitations).toHaveLength(1);
    expect((await ana.delete(`/api/v1/groups/${group.groupId}/members/${anaMember.memberId}`)).body).toEqual({
      left: true,
    });
    expect((await ana.get('/api/v1/me/invitations')).body.invitations).toEqual([]);
    expect((await ana.get('/api/v1/groups')).body.groups).toEqual([]);
    const afterRemove = await hana.delete(`/api/v1/groups/${group.groupId}/members/${maxMember.memberId}`);
    expect(afterRemove.status).toBe(200);
    expect(afterRemove.body.members.map((m: { userName: string }) => m.userName)).toEqual(['Hana', 'Gus']);
    expect((await max.get(`/api/v1/groups`)).body.groups).toEqual([]);
    expect((await max.delete(`/api/v1/groups/${group.groupId}`)).status).toBe(404);
    expect((await hana.delete(`/api/v1/groups/${group.groupId}/members/99`)).status).toBe(404);
    expect((await hana.delete(`/api/v1/groups/not-a-group`)).body.message).toBe(GROUP_MESSAGES.notFound);

    // Deleting the group ends its invitations; its rooms stay.
    expect((await hana.delete(`/api/v1/groups/${group.groupId}`)).status).toBe(200);
    expect((await hana.get('/api/v1/groups')).body.groups).toEqual([]);
    const current = await hana.get('/api/v1/waiting-room/current');
    expect(current.body.waitingRoom.waitingRoomId).toBe(third.body.waitingRoom.waitingRoomId);
  });

  it('is idempotent: a retried start opens one room and invites once', async () => {
    const hana = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Ines Host')).cookie);
    const max = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Ole Member')).cookie);
    const created = await hana.post('/api/v1/waiting-room/create', { userId: 'x', userName: 'Ines' });
    const code = created.body.waitingRoom.waitingRoomId as string;
    await max.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: 'Ole' });
    const saved = await hana.post('/api/v1/groups', { waitingRoomId: code, name: 'Book club' });
    await hana.patch('/api/v1/waiting-room/leave', { waitingRoomId: code, userId: created.body.userId });
    const key = { 'Idempotency-Key': '5c1f0e52-6a55-4f43-9d52-1e2f3a4b5c6d' };
    const first = await hana.post(`/api/v1/groups/${saved.body.groupId}/start`, {}, key);
    const second = await hana.post(`/api/v1/groups/${saved.body.groupId}/start`, {}, key);
    expect(first.status).toBe(200);
    expect(second.body.waitingRoom.waitingRoomId).toBe(first.body.waitingRoom.waitingRoomId);
    expect((await max.get('/api/v1/me/invitations')).body.invitations).toHaveLength(1);
  });
});
