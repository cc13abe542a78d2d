import { TEXT_COLUMNS } from '@forkvote/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'feedback' })
export class Feedback {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: TEXT_COLUMNS.personName })
  name: string;

  @Column({ type: 'varchar', length: TEXT_COLUMNS.email })
  email: string;

  @Column({ type: 'varchar', length: TEXT_COLUMNS.feedbackSubject })
  subject: string;

  @Column({ type: 'text' })
  message: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
