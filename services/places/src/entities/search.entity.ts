import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A record of each provider search (not its results, which live in the Redis cache): lets operators see
 * which provider answered, how fast, and how often searches miss the cache.
 */
@Entity({ name: 'searches' })
export class Search {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 20 })
  provider: string;

  @Column({ name: 'result_count', type: 'integer' })
  resultCount: number;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ type: 'boolean', default: false })
  failed: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
