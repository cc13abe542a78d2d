import { BallotsResult, batchOf, computeBallots, PLACES_PER_BATCH } from '@forkvote/contracts';
import { EntityManager, IsNull } from 'typeorm';
import { Member } from './entities/member.entity';
import { RoomPlace } from './entities/room-place.entity';
import { Room } from './entities/room.entity';
import { BallotSubmission } from './entities/ballot-submission.entity';

/** The results of the room's current batch, from the votes of its present members. */
export async function ballotsOf(manager: EntityManager, room: Room): Promise<BallotsResult> {
  const places = await manager
    .getRepository(RoomPlace)
    .find({ where: { roomId: room.id }, order: { position: 'ASC' } });
  const present = new Set(
    (await manager.getRepository(Member).findBy({ roomId: room.id, leftAt: IsNull() })).map((m) => m.userId),
  );
  const ballots = await manager
    .getRepository(BallotSubmission)
    .findBy({ roomId: room.id, batchIndex: room.batchIndex });
  const votes = ballots
    .filter((b) => present.has(b.userId))
    .flatMap((b) =>
      b.placeIds.map((placeId, i) => ({ userId: b.userId, placeId, voteType: b.voteTypes[i] })),
    );
  return computeBallots(
    room.batchIndex,
    batchOf(places, room.batchIndex, PLACES_PER_BATCH).map((p) => p.data),
    votes,
  );
}
