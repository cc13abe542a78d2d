import { PrivateLimits, TEXT_COLUMNS } from '@forkvote/contracts';
import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Room } from './room.entity';

@Entity({ name: 'members' })
export class Member {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'room_id', type: 'uuid' })
  roomId: string;

  @ManyToOne(() => Room, (room) => room.members, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'room_id' })
  room: Room;

  @Column({ name: 'user_id', type: 'varchar', length: TEXT_COLUMNS.userId })
  userId: string;

  @Column({ name: 'user_name', type: 'varchar', length: TEXT_COLUMNS.roomUserName })
  userName: string;

  @CreateDateColumn({ name: 'joined_at', type: 'timestamptz' })
  joinedAt: Date;

  /** The member's private limits in this room (docs/groups.md); read by nobody but them and the start. */
  @Column({ type: 'jsonb', nullable: true, select: false })
  limits: PrivateLimits | null;

  @Column({ name: 'left_at', type: 'timestamptz', nullable: true })
  leftAt: Date | null;
}
