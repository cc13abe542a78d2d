import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { toOpenApi3 } from './api-docs';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// class-transformer's own metadata (@Type of nested DTOs), which it exports only under this path.
const { defaultMetadataStorage } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/*
 * The OpenAPI document at /api/docs-json, made by @nestjs/swagger from the routes and their decorators
 * (api-docs.ts). Request schemas come from the DTOs' own validation rules (class-validator-jsonschema reads
 * the same decorators the validation pipe runs); answer schemas from the contracts' TypeScript types,
 * turned into JSON Schema at build time (scripts/answer-schemas.js). A test checks it against SPEC §7 and
 * Spectral's `spectral:oas` rules.
 */

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
    .addServer('/', 'This gateway')
    .addCookieAuth(
      'fv_session',
      {
        type: 'apiKey',
        description: 'The session cookie login sets (its token also works as a bearer token).',
      },
      'session',
    )
    .addCookieAuth(
      'fv_room',
      {
        type: 'apiKey',
        description: 'The room cookie create and join set: one browser, one room, one member.',
      },
      'room',
    )
    .addBearerAuth(
      { type: 'http', bearerFormat: 'JWT', description: 'The host token the create call answers (`token`).' },
      'host',
    )
    .addGlobalResponse({
      status: 'default',
      description: 'An error: 4xx for what the caller can fix, 5xx otherwise.',
      schema: { $ref: '#/components/schemas/Error' },
    });
  for (const [tag, description] of Object.entries({
    auth: 'Sign-up, sign-in, sessions and password reset.',
    me: 'The signed-in user: profile, billing, history and invitations.',
    groups: 'Saved groups: the people of a session kept under a name, started with again.',
    feedback: 'Messages to the team.',
    'waiting-room': 'Rooms, members, votes and the live event stream.',
    places: 'Zip codes, place types, nearby places and their photos.',
    plans: 'Shared plans: the place a group chose, public and read-only, and its calendar file.',
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
  document.components = { ...document.components, schemas: schemas as never };

  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      if (!operation.description) {
        throw new Error(
          `${method.toUpperCase()} ${path} says nothing of itself: give it @ApiCall (api-docs.ts)`,
        );
      }
      // A route open to anyone says so, rather than leaving it to a document-wide default.
      operation.security ??= [];
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
