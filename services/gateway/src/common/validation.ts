import { ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import { JoinRoomDto, ROOM_ID_PATTERN, VoteDto } from '@forkvote/contracts';
import { validationMessages } from '@forkvote/platform';

/**
 * What the gateway itself must read of a body that it forwards whole to the service that owns the call,
 * which validates it with the same DTO and answers the same messages: only the fields the gateway uses
 * (to match the room cookie). A body whose fields pass this goes on unvalidated here; any other is
 * validated in full, so its 400 names what is wrong exactly as before.
 */
const roomId = (value: unknown) => typeof value === 'string' && ROOM_ID_PATTERN.test(value.trim());

const FORWARDED: ReadonlyMap<unknown, (body: Record<string, unknown>) => boolean> = new Map<
  unknown,
  (body: Record<string, unknown>) => boolean
>([
  [VoteDto, (b) => roomId(b.waitingRoomId) && typeof b.userId === 'string'],
  [JoinRoomDto, (b) => roomId(b.waitingRoomId)],
]);

/**
 * The global pipe: whitelist, no unknown fields, transformation, one 400 with every message. The two
 * calls made most (join and vote) skip it when their body can go to rooms as it is: validating them twice
 * (here and in rooms) was a tenth of the gateway's CPU per call, profiled under load.
 */
export class GatewayValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) =>
        new BadRequestException([...new Set(validationMessages(errors))].join(', ')),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const forwardable = metadata.type === 'body' ? FORWARDED.get(metadata.metatype) : undefined;
    if (forwardable && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      if (forwardable(value as Record<string, unknown>)) return value;
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }
}
