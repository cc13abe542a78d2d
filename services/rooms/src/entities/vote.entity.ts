import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One member's ballot for one batch: its existence is what makes a second ballot a refusal. */
@Entity({ name: 'ballot_submissions' })
export class BallotSubmission {
  @PrimaryColumn({ name: 'room_id', type: 'uuid' })
  roomId: string;

  @PrimaryColumn({ name: 'batch_index', type: 'integer' })
  batchIndex: number;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 64 })
  userId: string;

  @CreateDateColumn({ name: 'submitted_at', type: 'timestamptz' })
  submittedAt: Date;
}

@Entity({ name: 'votes' })
export class Vote {
  @PrimaryColumn({ name: 'room_id', type: 'uuid' })
  roomId: string;

  @PrimaryColumn({ name: 'batch_index', type: 'integer' })
  batchIndex: number;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 64 })
  userId: string;

  @PrimaryColumn({ name: 'place_id', type: 'varchar', length: 300 })
  placeId: string;

  @Column({ name: 'vote_type', type: 'varchar', length: 4 })
  voteType: 'up' | 'down';
}
