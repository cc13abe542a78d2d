import { Document, Spectral } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { startTestStack, TestStack } from '@forkvote/testing';

/**
 * The OpenAPI document at /api/docs-json: every call of SPEC §7 with a request schema (where it takes a
 * body) and an answer schema, both with real fields; the security schemes; the event stream's resume
 * parameters; and Spectral's `spectral:oas` ruleset reporting nothing, not even a warning.
 */
type Schema = { $ref?: string; properties?: Record<string, unknown>; type?: string };
type Operation = {
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  parameters?: { name: string; in: string }[];
  security?: Record<string, string[]>[];
  description?: string;
};
interface ApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
}

/** SPEC §7's calls, and whether each takes a body. */
const SPEC_CALLS: [method: string, path: string, body: boolean][] = [
  ['post', '/api/v1/auth/verify-token', false],
  ['post', '/api/v1/auth/login', true],
  ['post', '/api/v1/auth/register', true],
  ['post', '/api/v1/auth/subscribe', true],
  ['post', '/api/v1/auth/logout', false],
  ['post', '/api/v1/auth/reset-password', true],
  ['post', '/api/v1/auth/reset-password-token', true],
  ['get', '/api/v1/me', false],
  ['patch', '/api/v1/me', true],
  ['get', '/api/v1/me/stripe', false],
  ['post', '/api/v1/feedback', true],
  ['post', '/api/v1/waiting-room/create', true],
  ['patch', '/api/v1/waiting-room/join', true],
  ['patch', '/api/v1/waiting-room/leave', true],
  ['post', '/api/v1/waiting-room/start', true],
  ['patch', '/api/v1/waiting-room/vote', true],
  ['post', '/api/v1/waiting-room/next-batch', true],
  ['get', '/api/v1/waiting-room/events/{waitingRoomId}', false],
];

describe('API documentation', () => {
  let stack: TestStack;
  let text: string;
  let doc: ApiDocument;

  beforeAll(async () => {
    stack = await startTestStack();
    const res = await fetch(`${stack.url}/api/docs-json`);
    expect(res.status).toBe(200);
    text = await res.text();
    doc = JSON.parse(text) as ApiDocument;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** A schema with fields, following a $ref. */
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

  it.each(SPEC_CALLS)(
    '%s %s has a request schema (if it takes a body) and an answer schema',
    (method, path, body) => {
      const operation = doc.paths[path]?.[method];
      expect(operation).toBeDefined();
      expect(operation.description?.length).toBeGreaterThan(10);
      if (body) {
        const request = resolve(operation.requestBody!.content['application/json'].schema);
        expect(Object.keys(request.properties ?? {}).length).toBeGreaterThan(0);
      }
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))!;
      const [media, { schema }] = Object.entries(success[1].content!)[0];
      const answer = resolve(schema);
      expect(answer.properties ?? answer.type).toBeTruthy();
      if (media === 'application/json')
        expect(Object.keys(answer.properties ?? {}).length).toBeGreaterThan(0);
    },
  );

  it('names the cookie and bearer schemes, and who needs which', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      session: { type: 'apiKey', in: 'cookie', name: 'fv_session' },
      room: { type: 'apiKey', in: 'cookie', name: 'fv_room' },
      host: { type: 'http', scheme: 'bearer' },
    });
    const security = (method: string, path: string) => doc.paths[path][method].security;
    expect(security('post', '/api/v1/waiting-room/start')).toEqual([{ host: [] }]);
    expect(security('patch', '/api/v1/waiting-room/vote')).toEqual([{ room: [] }]);
    expect(security('get', '/api/v1/me')).toEqual([{ session: [] }]);
    expect(security('post', '/api/v1/auth/login')).toEqual([]);
  });

  it('documents the event stream: its events and how to resume', () => {
    const events = doc.paths['/api/v1/waiting-room/events/{waitingRoomId}'].get;
    expect(events.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining([
        'path:waitingRoomId',
        'query:userId',
        'query:lastEventId',
        'header:Last-Event-ID',
      ]),
    );
    expect(Object.keys(events.responses['200'].content!)).toEqual(['text/event-stream']);
    const payloads = doc.components.schemas.RoomEvents.properties!;
    expect(Object.keys(payloads)).toEqual(
      expect.arrayContaining([
        'SUBSCRIBED_TO_SSE',
        'USER_JOINED',
        'WAITING_ROOM_STARTED',
        'BALLOTS_SUBMITTED',
        'NUDGE',
      ]),
    );
  });

  it('passes spectral:oas with no error, warning or hint', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(new Document(text, Parsers.Json));
    expect(results.map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  });
});
