import { TEXT_COLUMNS } from '@forkvote/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One member's ballot for one batch, with its votes: `placeIds[i]` got `voteTypes[i]`. Its existence is
 * what makes a second ballot a refusal.
 */
@Entity({ name: 'ballot_submissions' })
export class BallotSubmission {
  @PrimaryColumn({ name: 'room_id', type: 'uuid' })
  roomId: string;

  @PrimaryColumn({ name: 'batch_index', type: 'integer' })
  batchIndex: number;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: TEXT_COLUMNS.userId })
  userId: string;

  @CreateDateColumn({ name: 'submitted_at', type: 'timestamptz' })
  submittedAt: Date;

  @Column({ name: 'place_ids', type: 'varchar', length: TEXT_COLUMNS.placeId, array: true })
  placeIds: string[];

  @Column({ name: 'vote_types', type: 'varchar', length: 4, array: true })
  voteTypes: ('up' | 'down')[];
}
