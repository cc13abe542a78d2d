import { Plan } from '@forkvote/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A checkout of the offline (test-mode) payment provider; Stripe keeps its own. */
@Entity({ name: 'local_checkout_sessions' })
export class LocalCheckoutSession {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 10 })
  plan: Plan;

  /** sha256 of the secret the registering browser holds (in its httpOnly checkout cookie). */
  @Column({ name: 'secret_hash', type: 'char', length: 64, nullable: true })
  secretHash: string | null;

  @Column({ type: 'varchar', length: 10, default: 'open' })
  status: 'open' | 'complete' | 'expired';

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
