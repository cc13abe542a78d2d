import { Place, TEXT_COLUMNS } from '@forkvote/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The places a room votes on, in the order the search ranked them; batch n is positions 5n to 5n+4. */
@Entity({ name: 'room_places' })
export class RoomPlace {
  @PrimaryColumn({ name: 'room_id', type: 'uuid' })
  roomId: string;

  @PrimaryColumn({ type: 'integer' })
  position: number;

  @Column({ name: 'place_id', type: 'varchar', length: TEXT_COLUMNS.placeId })
  placeId: string;

  @Column({ type: 'jsonb' })
  data: Place;
}
