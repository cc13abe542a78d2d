import { DecisionRule, TEXT_COLUMNS } from '@forkvote/contracts';
import { Column, CreateDateColumn, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { Member } from './member.entity';

export type RoomState = 'waiting' | 'voting' | 'results' | 'closed';

@Entity({ name: 'rooms' })
export class Room {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The 6-character waiting room ID, upper-cased; unique among rooms that are not closed. */
  @Column({ type: 'varchar', length: 6 })
  code: string;

  @Column({ type: 'varchar', length: 10, default: 'waiting' })
  state: RoomState;

  @Column({ name: 'created_by_user_id', type: 'varchar', length: TEXT_COLUMNS.userId })
  createdByUserId: string;

  @Column({ name: 'batch_index', type: 'integer', default: 0 })
  batchIndex: number;

  @OneToMany(() => Member, (member) => member.room)
  members: Member[];

  /** The transport request id of the create call: a retried create returns the same room. */
  @Column({ name: 'create_request_id', type: 'varchar', length: 64, nullable: true, unique: true })
  createRequestId: string | null;

  /** How the room decides (docs/decisions.md); the SPEC's unanimous rule unless the host chose another. */
  @Column({ name: 'decision_rule', type: 'varchar', length: 10, default: 'unanimous' })
  decisionRule: DecisionRule;

  /** The search the host started voting with. */
  @Column({ type: 'jsonb', nullable: true })
  search: Record<string, unknown> | null;

  /** How many places the members' private limits left out at the start (the only figure shown of them). */
  @Column({ name: 'left_out_by_limits', type: 'integer', default: 0 })
  leftOutByLimits: number;

  /** The saved group the room was started with, if any (docs/groups.md). */
  @Column({ name: 'group_id', type: 'uuid', nullable: true })
  groupId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt: Date | null;
}
