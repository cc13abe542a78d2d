import { StripeSubscriptionShape } from '@forkvote/contracts';
import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The latest known state of one subscription, kept in Stripe's own shape. */
@Entity({ name: 'subscriptions' })
export class Subscription {
  /** Stripe's subscription id (sub_…), or sub_local_… for offline checkouts. */
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 30 })
  status: string;

  @Column({ type: 'jsonb' })
  data: StripeSubscriptionShape;

  /** `created` of the event that wrote this state: an older event arriving later is ignored. */
  @Column({
    name: 'event_created',
    type: 'bigint',
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  eventCreated: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
