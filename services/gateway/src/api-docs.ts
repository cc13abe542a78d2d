import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  getSchemaPath,
} from '@nestjs/swagger';
import { ROOM_EVENTS } from '@forkvote/contracts';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/*
 * What the routes say about themselves in the OpenAPI document (/api/docs-json), as @nestjs/swagger
 * decorators on each route. Schemas come from where the rules are: request and query schemas from the
 * DTOs' class-validator rules, answer schemas from the contracts' TypeScript types (openapi.ts).
 */

/** Who may call a route: the session cookie, the room cookie, or the host's bearer token. */
export const SESSION = () => ApiCookieAuth('session');
export const ROOM_MEMBER = () => ApiCookieAuth('room');
export const ROOM_HOST = () => ApiBearerAuth('host');

type Answer =
  /** A schema of the document by name: a contracts type, or one of openapi.ts's own (`Message`, …). */
  | string
  /** Another media type than JSON: the event stream, or a photo. */
  | { media: 'text/event-stream' | 'image/*' | 'text/calendar' };

/** One frame of the event stream: its name, its id, and its payload as JSON text (RoomEvents[name]). */
const EVENT_FRAME: SchemaObject = {
  type: 'object',
  description:
    'A server-sent event: `id:` (resume from it), `event:` (the name) and `data:` (JSON of that event’s payload).',
  properties: {
    id: { type: 'string', pattern: '^\\d+-\\d+$' },
    event: { type: 'string', enum: Object.values(ROOM_EVENTS) },
    data: { $ref: getSchemaPath('RoomEvents') },
  },
};

/**
 * Documents a route: what it does (its first sentence also describes the answer) and what it answers with
 * 200.
 */
export function ApiCall(description: string, answer?: Answer): MethodDecorator {
  const summary = description.split('.')[0];
  if (typeof answer === 'object') {
    const schema = answer.media === 'text/event-stream' ? EVENT_FRAME : { type: 'string', format: 'binary' };
    return applyDecorators(
      ApiOperation({ summary, description }),
      ApiProduces(answer.media),
      ApiOkResponse({ description: summary, content: { [answer.media]: { schema } } }),
    );
  }
  return applyDecorators(
    ApiOperation({ summary, description }),
    ApiOkResponse({
      description: summary,
      ...(answer ? { schema: { $ref: getSchemaPath(answer) } } : {}),
    }),
  );
}

/** A query DTO's fields as the route's query parameters, each with its class-validator rules as schema. */
export function ApiQueryOf(dto: new () => object): MethodDecorator {
  const schema = toOpenApi3(targetConstructorToSchema(dto)) as SchemaObject;
  return applyDecorators(
    ...Object.entries(schema.properties ?? {}).map(([name, field]) =>
      ApiQuery({
        name,
        required: schema.required?.includes(name) ?? false,
        description: `See ${dto.name}.${name}.`,
        schema: field as SchemaObject,
      }),
    ),
  );
}

/** JSON Schema (draft 7, from the generators) as OpenAPI 3.0 schema objects: `nullable`, no `const`. */
export function toOpenApi3(schema: unknown): unknown {
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
