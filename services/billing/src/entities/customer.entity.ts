import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One billing customer per ForkVote user; mirrors the Stripe customer when Stripe is configured. */
@Entity({ name: 'customers' })
export class Customer {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ name: 'stripe_customer_id', type: 'varchar', length: 255, nullable: true, unique: true })
  stripeCustomerId: string | null;

  @Column({ name: 'has_lifetime_access', type: 'boolean', default: false })
  hasLifetimeAccess: boolean;

  @Column({ name: 'lifetime_access_purchased_at', type: 'timestamptz', nullable: true })
  lifetimeAccessPurchasedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
