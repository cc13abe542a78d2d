/** PUT /waiting-room/limits: a member's private limits (rules and texts in limits-rules.ts). */
import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min, ValidateIf } from 'class-validator';
import {
  DIETS,
  type Diet,
  LIMITS_MESSAGES,
  MAX_LIMIT_DISTANCE_METERS,
  MIN_LIMIT_DISTANCE_METERS,
} from './limits-rules';
import { WaitingRoomIdField } from './rooms';
import { PRICE_LEVELS, type PriceLevel } from './search-rules';

export * from './limits-rules';

/** The three limits; each may be null (none of that kind). Absent fields are none too. */
export class LimitsFieldsDto {
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsIn(DIETS, { message: LIMITS_MESSAGES.unknownDiet })
  diet?: Diet | null;

  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsIn(PRICE_LEVELS, { message: LIMITS_MESSAGES.unknownPrice })
  maxPriceLevel?: PriceLevel | null;

  @ValidateIf((_, value) => value !== null && value !== undefined)
  @Type(() => Number)
  @IsInt({ message: LIMITS_MESSAGES.badDistance })
  @Min(MIN_LIMIT_DISTANCE_METERS, { message: LIMITS_MESSAGES.badDistance })
  @Max(MAX_LIMIT_DISTANCE_METERS, { message: LIMITS_MESSAGES.badDistance })
  maxDistanceMeters?: number | null;
}

export class PrivateLimitsDto extends LimitsFieldsDto {
  @WaitingRoomIdField()
  waitingRoomId: string;
}

/** GET /waiting-room/limits?waitingRoomId= */
export class LimitsQueryDto {
  @WaitingRoomIdField()
  waitingRoomId: string;
}
