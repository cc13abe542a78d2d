/** Web Push to room members (rooms sends from its outbox): the subscription a browser hands in. */
import { Type } from 'class-transformer';
import { IsString, Matches, ValidateNested } from 'class-validator';
import { PUSH_MESSAGES } from './push-rules';
import { WaitingRoomIdField } from './rooms';
import { Text } from './validation';

export * from './push-rules';

export class PushKeysDto {
  @IsString({ message: PUSH_MESSAGES.badSubscription })
  @Matches(/^[A-Za-z0-9_-]{20,200}={0,2}$/, { message: PUSH_MESSAGES.badSubscription })
  p256dh: string;

  @IsString({ message: PUSH_MESSAGES.badSubscription })
  @Matches(/^[A-Za-z0-9_-]{8,100}={0,2}$/, { message: PUSH_MESSAGES.badSubscription })
  auth: string;
}

/** POST /waiting-room/push: a member's browser subscription (PushSubscription.toJSON()). */
export class PushSubscriptionDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @IsString({ message: PUSH_MESSAGES.badSubscription })
  @Text(1000, { message: PUSH_MESSAGES.badSubscription })
  @Matches(/^https:\/\/[^\s]+$/, { message: PUSH_MESSAGES.badSubscription })
  endpoint: string;

  @ValidateNested()
  @Type(() => PushKeysDto)
  keys: PushKeysDto;
}
