import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Webhook events already applied: Stripe retries deliveries, each event must count once. */
@Entity({ name: 'processed_events' })
export class ProcessedEvent {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  type: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt: Date;
}
