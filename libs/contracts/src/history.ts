/** The history call's query (GET /api/v1/me/history), validated at the gateway and again by rooms. */
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { HISTORY_MAX_PAGE } from './history-rules';
import { Optional } from './validation';

export * from './history-rules';

export class HistoryQueryDto {
  @Optional()
  @Type(() => Number)
  @IsInt({ message: `page must be a whole number from 1 to ${HISTORY_MAX_PAGE}` })
  @Min(1, { message: `page must be a whole number from 1 to ${HISTORY_MAX_PAGE}` })
  @Max(HISTORY_MAX_PAGE, { message: `page must be a whole number from 1 to ${HISTORY_MAX_PAGE}` })
  page?: number;
}
