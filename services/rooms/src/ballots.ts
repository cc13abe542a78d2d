import { BallotsInput, BallotsResult, ballotsResultOf, PLACES_PER_BATCH } from '@forkvote/contracts';
import { EntityManager } from 'typeorm';
import { Room } from './entities/room.entity';

/** What the results of the room's current batch are computed from, by the same SQL the last ballot uses. */
export async function batchResultsInput(
  manager: EntityManager,
  room: Pick<Room, 'id' | 'batchIndex'>,
): Promise<BallotsInput> {
  const [{ input }] = (await manager.query(`SELECT "rooms"."batch_results_input"($1, $2, $3) AS input`, [
    room.id,
    room.batchIndex,
    PLACES_PER_BATCH,
  ])) as { input: BallotsInput }[];
  return input;
}

/**
 * The results of the room's current batch, from the same SQL the last ballot uses (sql/20-…), so "whose
 * votes count" is defined once.
 */
export async function ballotsOf(
  manager: EntityManager,
  room: Pick<Room, 'id' | 'batchIndex'>,
): Promise<BallotsResult> {
  return ballotsResultOf(await batchResultsInput(manager, room));
}
