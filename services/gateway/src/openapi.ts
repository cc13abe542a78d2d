import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { MediaTypeObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ROOM_EVENTS } from '@forkvote/contracts';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// class-transformer's own metadata (@Type of nested DTOs), which it exports only under this path.
const { defaultMetadataStorage } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/*
 * The OpenAPI document at /api/docs-json. Request schemas come from the DTOs' own validation rules
 * (class-validator-jsonschema reads the same decorators the validation pipe runs); answer schemas from the
 * contracts' TypeScript types, turned into JSON Schema at build time (scripts/answer-schemas.js). The
 * table below says, per operation, what it answers, who may call it and what it does: one place, checked
 * by a test against SPEC §7 and by Spectral's `spectral:oas` rules.
 */

type Security = 'session' | 'room' | 'host';
interface Operation {
  description: string;
  /** The answer's schema: a contracts type, `Message` ({ message }), or none (no body). */
  answer?: string;
  /** Another media type than JSON (the event stream, a photo). */
  media?: string;
  security?: Security[];
  /** A DTO whose fields are the query string. */
  query?: string;
}

const OPERATIONS: Record<string, Operation> = {
  'GET /api/v1/health': {
    description: 'Each part of ForkVote, up or degraded (at most a few seconds old).',
    answer: 'PublicHealth',
  },
  'GET /api/v1/health/live': { description: 'Liveness: the process answers.', answer: 'Status' },
  'GET /api/v1/health/ready': {
    description: 'Readiness: Redis answers and the gateway is not draining.',
    answer: 'Status',
  },
  'GET /api/v1/config': {
    description: 'What the web app needs to know: the bot-check site key and the environment.',
    answer: 'PublicConfig',
  },
  'POST /api/v1/auth/verify-token': {
    description: 'The signed-in user, from the session cookie (or bearer token).',
    answer: 'AccessTokenPayload',
    security: ['session'],
  },
  'POST /api/v1/auth/login': {
    description: 'Signs in; sets the session cookie.',
    answer: 'AccessTokenPayload',
  },
  'POST /api/v1/auth/register': {
    description:
      'Creates the account and a checkout for the chosen plan; the browser goes to `stripeCheckoutUrl`.',
    answer: 'CheckoutAnswer',
  },
  'POST /api/v1/auth/subscribe': {
    description: 'A checkout for a new plan of the signed-in user.',
    answer: 'CheckoutAnswer',
    security: ['session'],
  },
  'POST /api/v1/auth/logout': {
    description: 'Ends the session everywhere it is recorded and clears the cookie.',
    answer: 'Message',
    security: ['session'],
  },
  'POST /api/v1/auth/reset-password': {
    description:
      'Mails a password-reset link, if the address has an account (the answer is the same either way).',
    answer: 'Message',
  },
  'POST /api/v1/auth/reset-password-token': {
    description: 'Sets a new password with the token from the reset link.',
    answer: 'Message',
  },
  'GET /api/v1/me': { description: 'The signed-in user.', answer: 'WireUser', security: ['session'] },
  'PATCH /api/v1/me': {
    description: 'Changes name, default zip code, preferences and the feedback choice.',
    answer: 'WireUser',
    security: ['session'],
  },
  'GET /api/v1/me/stripe': {
    description: 'Billing information: the subscription and the customer portal address.',
    answer: 'StripeInformation',
    security: ['session'],
  },
  'POST /api/v1/feedback': { description: 'Sends feedback to the team.', answer: 'Message' },
  'POST /api/v1/waiting-room/create': {
    description: 'Opens a waiting room (hosts only); answers the host bearer token and sets the room cookie.',
    answer: 'CreateRoomAnswer',
    security: ['session'],
  },
  'PATCH /api/v1/waiting-room/join': {
    description: 'Joins a waiting room as a guest or as the signed-in user; sets the room cookie.',
    answer: 'JoinRoomAnswer',
  },
  'PATCH /api/v1/waiting-room/leave': {
    description: 'Leaves the room; the host leaving closes it for everyone.',
    answer: 'Message',
    security: ['room'],
  },
  'POST /api/v1/waiting-room/start': {
    description: 'Searches places and starts voting (host only).',
    answer: 'PlacesAnswer',
    security: ['host'],
  },
  'PATCH /api/v1/waiting-room/vote': {
    description: 'Casts the member’s votes on the 5 places of the batch.',
    answer: 'VoteAnswer',
    security: ['room'],
  },
  'POST /api/v1/waiting-room/next-batch': {
    description: 'Moves the room to its next batch (host only); says so when none is left.',
    answer: 'NextBatchAnswer',
    security: ['host'],
  },
  'POST /api/v1/waiting-room/nudge': {
    description: 'Reminds the members who have not voted (host only; each member once per 30 s).',
    answer: 'NudgeAnswer',
    security: ['host'],
  },
  'GET /api/v1/waiting-room/current': {
    description:
      'The room this browser is in, for a reload: members, places, votes, results and the last event id.',
    answer: 'RoomSnapshot',
    security: ['room'],
  },
  'GET /api/v1/waiting-room/events/{waitingRoomId}': {
    description:
      'The room’s live events as a server-sent event stream (members only). Each event has an `id`; send the last one as `Last-Event-ID` (or `lastEventId`) to resume after a drop, and receive every event missed, once, then `SUBSCRIBED_TO_SSE`. Events: ' +
      Object.values(ROOM_EVENTS).join(', ') +
      ' (payloads: `RoomEvents`). A comment line every 15 s keeps proxies open.',
    media: 'text/event-stream',
    security: ['room'],
  },
  'GET /api/v1/places/geocode': {
    description: 'Zip code → coordinates (US, offline table).',
    answer: 'GeocodeAnswer',
    query: 'GeocodeQueryDto',
  },
  'GET /api/v1/places/types': {
    description: 'Every place type with its labels, and the filter groups.',
    answer: 'PlaceTypesAnswer',
  },
  'GET /api/v1/places/photo': {
    description: 'A place’s photo, served by the gateway (the provider’s key never reaches a browser).',
    media: 'image/*',
    query: 'PhotoQueryDto',
  },
  'GET /api/v1/places/nearby': {
    description:
      'Place discovery: nearby places by popularity or distance, filtered by type, open now and price, a page at a time.',
    answer: 'PlacesAnswer',
    query: 'NearbyQueryDto',
  },
  'POST /api/v1/billing/webhook': { description: 'Stripe’s webhook (signed by Stripe).', answer: 'Received' },
};

/** One frame of the event stream: its name, its id, and its payload as JSON text (RoomEvents[name]). */
const EVENT_FRAME: MediaTypeObject['schema'] = {
  type: 'object',
  description:
    'A server-sent event: `id:` (resume from it), `event:` (the name) and `data:` (JSON of that event’s payload).',
  properties: {
    id: { type: 'string', pattern: '^\\d+-\\d+$' },
    event: { type: 'string', enum: Object.values(ROOM_EVENTS) },
    data: { $ref: '#/components/schemas/RoomEvents' },
  },
};

/** Answers that are not contracts types. */
const LOCAL_SCHEMAS: Record<string, object> = {
  Message: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  Status: {
    type: 'object',
    properties: { status: { type: 'string' } },
    required: ['status'],
    additionalProperties: true,
  },
  Received: { type: 'object', properties: { received: { type: 'boolean' } }, additionalProperties: true },
  VoteAnswer: {
    type: 'object',
    properties: { voted: { type: 'boolean' }, usersVoted: { type: 'array', items: { type: 'string' } } },
    required: ['voted', 'usersVoted'],
  },
  PublicConfig: {
    type: 'object',
    properties: { recaptchaSiteKey: { type: 'string' }, environment: { type: 'string' } },
    required: ['recaptchaSiteKey', 'environment'],
  },
  Error: {
    type: 'object',
    properties: {
      statusCode: { type: 'integer' },
      message: { type: 'string', description: 'What went wrong, in words shown to users.' },
      error: { type: 'string' },
      code: { type: 'string' },
    },
    required: ['statusCode', 'message'],
  },
};

const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'fv_session',
    description: 'The session cookie login sets (its token also works as a bearer token).',
  },
  room: {
    type: 'apiKey',
    in: 'cookie',
    name: 'fv_room',
    description: 'The room cookie create and join set: one browser, one room, one member.',
  },
  host: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The host token the create call answers (`token`).',
  },
} as const;

/** JSON Schema (draft 7, from the generators) as OpenAPI 3.0 schema objects: `nullable`, no `const`. */
function toOpenApi3(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi3);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'definitions') continue;
    if (key === '$ref' && typeof value === 'string')
      out.$ref = value.replace('#/definitions/', '#/components/schemas/');
    else if (key === 'const') out.enum = [value];
    else out[key] = toOpenApi3(value);
  }
  if (Array.isArray(out.type)) {
    const types = (out.type as string[]).filter((t) => t !== 'null');
    if (types.length < (out.type as string[]).length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else {
      delete out.type;
      out.anyOf = types.map((type) => ({ type }));
    }
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = out[key] as { type?: string }[] | undefined;
    if (list?.some((s) => s.type === 'null')) {
      const rest = list.filter((s) => s.type !== 'null');
      delete out[key];
      // A $ref takes no siblings: `nullable` goes beside an allOf holding it.
      if (rest.length === 1 && '$ref' in rest[0]) Object.assign(out, { allOf: rest, nullable: true });
      else if (rest.length === 1) Object.assign(out, rest[0], { nullable: true });
      else Object.assign(out, { [key]: rest, nullable: true });
    }
  }
  return out;
}

/** The answer schemas the build generated from the contracts' types (dist/openapi/answer-schemas.json). */
function answerSchemas(): Record<string, object> {
  const file = join(__dirname, 'openapi', 'answer-schemas.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: the gateway's build makes it`);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, object>;
}

export function buildApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('ForkVote API')
    .setDescription(
      'The browser-facing API of ForkVote: accounts, billing, waiting rooms with their live events, and places. ' +
        'Every call goes through this gateway. Errors answer `{ statusCode, message }`, `message` in words shown to users.',
    )
    .setVersion('1')
    .setContact('ForkVote support', 'https://forkvote.example.com/help', 'support@forkvote.example.com')
    .setLicense('Proprietary', 'https://forkvote.example.com/terms')
    .addServer('/', 'This gateway');
  for (const [tag, description] of Object.entries({
    auth: 'Sign-up, sign-in, sessions and password reset.',
    me: 'The signed-in user and their billing.',
    feedback: 'Messages to the team.',
    'waiting-room': 'Rooms, members, votes and the live event stream.',
    places: 'Zip codes, place types, nearby places and their photos.',
    billing: 'Stripe’s webhook.',
    health: 'Liveness, readiness and the health of every service.',
    config: 'What the web app needs at start.',
  })) {
    builder.addTag(tag, description);
  }
  const document = SwaggerModule.createDocument(app, builder.build());

  const requests = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage,
  });
  const schemas: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries({ ...requests, ...answerSchemas(), ...LOCAL_SCHEMAS })) {
    schemas[name] = toOpenApi3(schema);
  }
  document.components = {
    ...document.components,
    schemas: schemas as never,
    securitySchemes: SECURITY_SCHEMES as never,
  };

  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const spec = OPERATIONS[key];
      if (!spec) throw new Error(`No OpenAPI description for ${key}: add it to OPERATIONS in openapi.ts`);
      operation.description = spec.description;
      operation.security = (spec.security ?? []).map((s) => ({ [s]: [] }));
      if (!operation.tags?.length) operation.tags = [path.split('/')[3]];
      const success = Object.keys(operation.responses ?? {}).find((status) => /^2/.test(status)) ?? '200';
      const content: Record<string, MediaTypeObject> | undefined =
        spec.media === 'text/event-stream'
          ? { [spec.media]: { schema: EVENT_FRAME } }
          : spec.media
            ? { [spec.media]: { schema: { type: 'string', format: 'binary' } } }
            : spec.answer
              ? { 'application/json': { schema: { $ref: `#/components/schemas/${spec.answer}` } } }
              : undefined;
      operation.responses = {
        [success]: { description: spec.description.split('.')[0], ...(content ? { content } : {}) },
        default: {
          description: 'An error: 4xx for what the caller can fix, 5xx otherwise.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      };
      if (spec.query) {
        const dto = schemas[spec.query] as { properties: Record<string, object>; required?: string[] };
        operation.parameters = Object.entries(dto.properties).map(([name, schema]) => ({
          name,
          in: 'query' as const,
          required: dto.required?.includes(name) ?? false,
          description: `See ${spec.query}.${name}.`,
          schema,
        }));
      }
      if (spec.media === 'text/event-stream') {
        operation.parameters = [
          {
            name: 'waitingRoomId',
            in: 'path',
            required: true,
            description: 'The 6-character room code.',
            schema: { type: 'string', pattern: '^[A-Za-z0-9]{6}$' },
          },
          {
            name: 'userId',
            in: 'query',
            required: false,
            description: 'The member’s id (must match the room cookie).',
            schema: { type: 'string' },
          },
          {
            name: 'userName',
            in: 'query',
            required: false,
            description: 'Sent by the web app; not used.',
            schema: { type: 'string' },
          },
          {
            name: 'lastEventId',
            in: 'query',
            required: false,
            description: 'Resume after this event id (as Last-Event-ID).',
            schema: { type: 'string', pattern: '^\\d+-\\d+$' },
          },
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description: 'The id of the last event received: the stream replays what came after it.',
            schema: { type: 'string', pattern: '^\\d+-\\d+$' },
          },
        ];
      }
      for (const parameter of operation.parameters ?? []) {
        const p = parameter as { description?: string; name?: string };
        p.description ??= `The ${p.name}.`;
      }
    }
  }
  removeUnused(document);
  return document;
}

/** Drops schemas nothing refers to. */
function removeUnused(document: OpenAPIObject): void {
  const schemas = document.components!.schemas!;
  const keep = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        if (!keep.has(name)) {
          keep.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(document.paths);
  for (const name of Object.keys(schemas)) if (!keep.has(name)) delete schemas[name];
}
