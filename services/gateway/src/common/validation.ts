import { ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import { JoinRoomDto, ROOM_ID_PATTERN, VoteDto, VoteItemDto } from '@forkvote/contracts';
import { validationMessages } from '@forkvote/platform';
import { getMetadataStorage } from 'class-validator';

/** The fields a DTO declares, read once from its class-validator decorators. */
function fieldsOf(dto: new () => object): ReadonlySet<string> {
  const rules = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return new Set(rules.map((rule) => rule.propertyName));
}

const plainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every key is one the DTO declares: rooms drops unknown fields, so only the gateway can refuse them. */
const onlyFields = (value: Record<string, unknown>, fields: ReadonlySet<string>) =>
  Object.keys(value).every((key) => fields.has(key));

const roomId = (value: unknown) => typeof value === 'string' && ROOM_ID_PATTERN.test(value.trim());

const JOIN_FIELDS = fieldsOf(JoinRoomDto);
const VOTE_FIELDS = fieldsOf(VoteDto);
const VOTE_ITEM_FIELDS = fieldsOf(VoteItemDto);

/**
 * Bodies the gateway forwards whole to rooms, which validates them with the same DTO and answers the same
 * messages. A body passes here unvalidated when the gateway can read the fields it uses itself (to match
 * the room cookie) and carries no field its DTO does not declare, at any depth (rooms would drop those
 * silently; the gateway refuses them with 400). Any other body is validated in full here, as before.
 */
const FORWARDED: ReadonlyMap<unknown, (body: Record<string, unknown>) => boolean> = new Map<
  unknown,
  (body: Record<string, unknown>) => boolean
>([
  [
    VoteDto,
    (b) =>
      roomId(b.waitingRoomId) &&
      typeof b.userId === 'string' &&
      onlyFields(b, VOTE_FIELDS) &&
      Array.isArray(b.votes) &&
      b.votes.every((item) => plainObject(item) && onlyFields(item, VOTE_ITEM_FIELDS)),
  ],
  [JoinRoomDto, (b) => roomId(b.waitingRoomId) && onlyFields(b, JOIN_FIELDS)],
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
    if (forwardable && plainObject(value) && forwardable(value)) return value;
    return super.transform(value, metadata) as Promise<unknown>;
  }
}
