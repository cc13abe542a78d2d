import { ROOM_EVENTS } from '@forkvote/contracts';
import { EventStreamClient, freePort, Participant, signUp, START_SEARCH } from '@forkvote/testing';
import { startTestStack as startStack, RunningStack } from '@forkvote/testing/src/stack';

/**
 * What an operator's Prometheus sees: the gateway's /metrics on METRICS_PORT (never on the public port),
 * each service's on its HEALTH_PORT, after a real session (create, join, start, vote, a live stream).
 */
type Sample = { name: string; labels: Record<string, string>; value: number };

function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(port: number): Promise<Sample[]> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('metrics', () => {
  let stack: RunningStack;
  const ports: Record<string, number> = {};
  let stream: EventStreamClient | undefined;

  beforeAll(async () => {
    for (const name of ['gateway', 'auth', 'rooms', 'billing', 'places']) ports[name] = await freePort();
    stack = await startStack({
      processEnv: {
        gateway: { METRICS_PORT: String(ports.gateway) },
        ...Object.fromEntries(
          ['auth', 'rooms', 'billing', 'places'].map((name) => [name, { HEALTH_PORT: String(ports[name]) }]),
        ),
      },
    });
    await stack.waitHealthy(60_000);
  });

  afterAll(async () => {
    stream?.close();
    await stack?.stop();
  });

  it('counts a session in every process, with routes as patterns and no ids in any label', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Mona Metrics')).cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Mona' });
    const code: string = created.body.waitingRoom.waitingRoomId;
    const hostId: string = created.body.userId;
    stream = await host.events(code, hostId);
    await stream.waitFor(ROOM_EVENTS.subscribed);
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${created.body.token}`,
    });
    const votes = started.body.places
      .slice(0, 5)
      .map((p: { id: string }) => ({ placeId: p.id, voteType: 'up' }));
    const vote = () =>
      host.patch('/api/v1/waiting-room/vote', { waitingRoomId: code, userId: hostId, votes });
    expect((await vote()).status).toBe(200);
    await stream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    // Refused by rooms (already voted), and by the gateway's validation.
    expect((await vote()).status).toBe(409);
    expect((await host.patch('/api/v1/waiting-room/vote', { waitingRoomId: 'nope' })).status).toBe(400);
    // Refused before routing (another origin): counted under the route it was for, not as unmatched.
    const foreign = await fetch(`${stack.url}/api/v1/waiting-room/vote`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Origin: 'https://elsewhere.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    expect((await fetch(`${stack.url}/api/v1/no-such-call`)).status).toBe(404);

    const gateway = await scrape(ports.gateway);
    expect(
      find(gateway, 'forkvote_http_requests_total', { route: 'unmatched', status: '404' })[0].value,
    ).toBe(1);
    const voteRoute = { route: '/api/v1/waiting-room/vote', method: 'PATCH' };
    expect(find(gateway, 'forkvote_http_requests_total', { ...voteRoute, status: '200' })[0].value).toBe(1);
    expect(find(gateway, 'forkvote_http_requests_total', { ...voteRoute, status: '409' })[0].value).toBe(1);
    expect(find(gateway, 'forkvote_http_requests_total', { ...voteRoute, status: '400' })[0].value).toBe(1);
    expect(find(gateway, 'forkvote_http_requests_total', { ...voteRoute, status: '403' })[0].value).toBe(1);
    expect(
      find(gateway, 'forkvote_http_request_duration_seconds_count', { ...voteRoute, status: '200' })[0].value,
    ).toBe(1);
    expect(find(gateway, 'forkvote_sse_connections')[0]).toMatchObject({
      value: 1,
      labels: { service: 'gateway' },
    });
    expect(find(gateway, 'forkvote_sse_fanout_latency_seconds_count')[0].value).toBeGreaterThanOrEqual(3);
    const rpc = (outcome: string) =>
      find(gateway, 'forkvote_rpc_client_duration_seconds_count', { pattern: 'rooms.vote', outcome })[0]
        ?.value;
    expect(rpc('ok')).toBe(1);
    expect(rpc('refused')).toBe(1);
    expect(find(gateway, 'nodejs_eventloop_lag_seconds').length).toBe(1);
    // Routes are patterns: no room code, user id or place id is ever a label value.
    for (const sample of gateway) {
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toContain(code);
        expect(value).not.toContain(hostId);
      }
    }
    expect(find(gateway, 'forkvote_http_requests_total').map((s) => s.labels.route)).toContain(
      '/api/v1/waiting-room/create',
    );

    const rooms = await scrape(ports.rooms);
    const handled = (outcome: string) =>
      find(rooms, 'forkvote_rpc_server_duration_seconds_count', { pattern: 'rooms.vote', outcome })[0]?.value;
    expect(handled('ok')).toBe(1);
    expect(handled('refused')).toBe(1);
    const pending = find(rooms, 'forkvote_stream_pending', { group: 'rooms' });
    expect(pending).toHaveLength(1);
    expect(pending[0].labels.stream).toMatch(/:rpc:\{rooms\}$/);
    expect(pending[0].value).toBeGreaterThanOrEqual(0);
    expect(find(rooms, 'forkvote_stream_lag', { group: 'rooms' })).toHaveLength(1);
    expect(find(rooms, 'forkvote_room_outbox_backlog')[0].value).toBe(0);
    expect(find(rooms, 'forkvote_room_outbox_oldest_age_seconds')[0].value).toBe(0);
    expect(find(rooms, 'forkvote_build_info')[0]).toMatchObject({
      value: 1,
      labels: {
        service: 'rooms',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        node: process.versions.node,
      },
    });
    expect(find(rooms, 'forkvote_db_pool_connections', { state: 'total' })[0].value).toBeGreaterThan(0);
    // Rooms asked places for the search: the caller's side of that call is counted in rooms.
    expect(
      find(rooms, 'forkvote_rpc_client_duration_seconds_count', {
        pattern: 'places.search',
        outcome: 'ok',
      })[0].value,
    ).toBe(1);

    for (const name of ['auth', 'billing', 'places']) {
      const samples = await scrape(ports[name]);
      expect(find(samples, 'process_cpu_seconds_total', { service: name })).toHaveLength(1);
      expect(find(samples, 'forkvote_stream_pending', { group: name })).toHaveLength(1);
    }
  });

  it('never serves metrics on the public port', async () => {
    const res = await fetch(`${stack.url}/metrics`);
    expect(await res.text()).not.toContain('forkvote_');
    const api = await fetch(`${stack.url}/api/v1/metrics`);
    expect(api.status).toBe(404);
  });
});
