/** The decision commands' bodies (docs/decisions.md), validated at the gateway and again by rooms. */
import { IsIn, IsISO8601, IsString } from 'class-validator';
import { DECISION_MESSAGES } from './decision-rules';
import { DECISION_RULES, DecisionRule } from './room-rules';
import { WaitingRoomIdField } from './rooms';
import { Optional, Text, TEXT_COLUMNS } from './validation';

export * from './decision-rules';

/** PATCH /waiting-room/rule (host, before voting starts). */
export class DecisionRuleDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @IsIn(DECISION_RULES, { message: DECISION_MESSAGES.invalidRule })
  decisionRule: DecisionRule;
}

/** POST /waiting-room/holdouts and /waiting-room/pick (host): the room whose current batch it is about. */
export class RoomBatchDto {
  @WaitingRoomIdField()
  waitingRoomId: string;
}

/** PATCH /waiting-room/holdouts/answer: a holdout's answer to "Could you live with {place}?". */
export class HoldoutAnswerDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @IsString()
  @Text(TEXT_COLUMNS.userId)
  userId: string;

  @IsString({ message: DECISION_MESSAGES.notAsked })
  @Text(TEXT_COLUMNS.placeId, { message: DECISION_MESSAGES.notAsked })
  placeId: string;

  @IsIn(['yes', 'no'], { message: DECISION_MESSAGES.invalidAnswer })
  answer: 'yes' | 'no';
}

/** POST /waiting-room/plan (any member): share the decided place, at a time (default: the next quarter hour). */
export class SharePlanDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @IsString({ message: DECISION_MESSAGES.notAWinner })
  @Text(TEXT_COLUMNS.placeId, { message: DECISION_MESSAGES.notAWinner })
  placeId: string;

  @Optional()
  @IsISO8601({ strict: true }, { message: DECISION_MESSAGES.invalidPlanTime })
  startsAt?: string;
}
