import { PrivateLimits, TEXT_COLUMNS } from '@forkvote/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Stored lower-cased; unique. */
  @Column({ type: 'varchar', length: TEXT_COLUMNS.email, unique: true })
  email: string;

  @Column({ type: 'varchar', length: TEXT_COLUMNS.personName })
  name: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ name: 'default_zipcode', type: 'varchar', length: 5, nullable: true })
  defaultZipcode: string | null;

  @Column({ name: 'contact_me_for_user_feedback', type: 'boolean', default: false })
  contactMeForUserFeedback: boolean;

  @Column({ name: 'restaurant_types_to_include', type: 'text', array: true, default: () => "'{}'" })
  restaurantTypesToInclude: string[];

  @Column({ name: 'restaurant_types_to_exclude', type: 'text', array: true, default: () => "'{}'" })
  restaurantTypesToExclude: string[];

  /** Bumped on logout-everywhere and password change: tokens carrying an older version are refused. */
  /** Private limits (docs/groups.md); null when the user set none. */
  @Column({ type: 'jsonb', nullable: true })
  limits: PrivateLimits | null;

  @Column({ name: 'token_version', type: 'integer', default: 0 })
  tokenVersion: number;

  @Column({ name: 'terms_version', type: 'varchar', length: 10 })
  termsVersion: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
