import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One login session, keyed by its token's id (`jti`). The durable record of revocation: logout and
 * password reset set `revoked_at` here first; Redis only caches the answer for the gateways.
 */
@Entity({ name: 'sessions' })
export class Session {
  @PrimaryColumn('uuid')
  id: string;

  @Index('sessions_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
