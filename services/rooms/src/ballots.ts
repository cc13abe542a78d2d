import { BallotsResult, batchOf, computeBallots, PLACES_PER_BATCH } from '@forkvote/contracts';
import { EntityManager, IsNull } from 'typeorm';
import { Member } from './entities/member.entity';
import { RoomPlace } from './entities/room-place.entity';
import { Room } from './entities/room.entity';
import { Vote } from './entities/vote.entity';

/** The results of the room's current batch, from the votes of its present members. */
export async function ballotsOf(manager: EntityManager, room: Room): Promise<BallotsResult> {
  const places = await manager
    .getRepository(RoomPlace)
    .find({ where: { roomId: room.id }, order: { position: 'ASC' } });
  const present = new Set(
    (await manager.getRepository(Member).findBy({ roomId: room.id, leftAt: IsNull() })).map((m) => m.userId),
  );
  const votes = await manager.getRepository(Vote).findBy({ roomId: room.id, batchIndex: room.batchIndex });
  return computeBallots(
    room.batchIndex,
    batchOf(places, room.batchIndex, PLACES_PER_BATCH).map((p) => p.data),
    votes.filter((v) => present.has(v.userId)),
  );
}
