import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import type { PoolClient, QueryResultRow } from 'pg';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, DataSourceOptions, EntityManager, EntitySchema, MixedList, QueryRunner } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { PlatformConfig } from './config';

export interface DatabaseOptions {
  /** The PostgreSQL schema this service owns; its tables and its migrations table live there. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  /**
   * A folder of repeatable SQL files (functions): applied in name order after the migrations, each again
   * whenever its text changes, so a function has one definition that is edited in place, never copied
   * into a new migration.
   */
  sqlDir?: string;
}

/** Options shared by the running app and the TypeORM CLI's `data-source.ts` of each service. */
export function dataSourceOptions(url: string, options: DatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' },
    extra: { max: 10, connectionTimeoutMillis: 5000, application_name: `forkvote-${options.schema}` },
  };
}

/**
 * Creates the schema and runs pending migrations under a PostgreSQL advisory lock, so replicas starting
 * together never race each other's migrations.
 */
export async function migrate(dataSource: DataSource, schema: string, sqlDir?: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`forkvote:migrate:${schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
    if (sqlDir) applied.push(...(await applyRepeatableSql(runner, schema, sqlDir)));
    return applied;
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock(hashtext($1))', [`forkvote:migrate:${schema}`])
      .catch(() => undefined);
    await runner.release();
  }
}

/**
 * Applies each `*.sql` file of `sqlDir` (in name order) whose text differs from the one last applied, in a
 * transaction with the record of its checksum (`<schema>.repeatable_sql`). Runs under the migration lock.
 */
async function applyRepeatableSql(runner: QueryRunner, schema: string, sqlDir: string): Promise<string[]> {
  await runner.query(`
    CREATE TABLE IF NOT EXISTS "${schema}"."repeatable_sql" (
      "name" varchar(200) PRIMARY KEY,
      "checksum" char(64) NOT NULL,
      "applied_at" timestamptz NOT NULL DEFAULT now()
    )`);
  const rows = (await runner.query(`SELECT name, checksum FROM "${schema}"."repeatable_sql"`)) as {
    name: string;
    checksum: string;
  }[];
  const known = new Map(rows.map((row) => [row.name, row.checksum]));
  const applied: string[] = [];
  for (const file of readdirSync(sqlDir)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    const text = readFileSync(join(sqlDir, file), 'utf8');
    const checksum = createHash('sha256').update(text).digest('hex');
    if (known.get(file) === checksum) continue;
    await runner.startTransaction();
    try {
      await runner.query(text);
      await runner.query(
        `INSERT INTO "${schema}"."repeatable_sql" (name, checksum) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
        [file, checksum],
      );
      await runner.commitTransaction();
    } catch (err) {
      await runner.rollbackTransaction();
      throw err;
    }
    applied.push(`${file} (${checksum.slice(0, 8)})`);
  }
  return applied;
}

@Injectable()
class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Provides the service's TypeORM DataSource, migrated before the app answers anything. */
@Module({})
export class DatabaseModule {
  static forService(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          inject: [PlatformConfig],
          useFactory: async (config: PlatformConfig) => {
            const dataSource = new DataSource(dataSourceOptions(config.DATABASE_URL, options));
            await dataSource.initialize();
            if (config.MIGRATIONS_ON_START === 'true') {
              const applied = await migrate(dataSource, options.schema, options.sqlDir);
              if (applied.length > 0) new Logger('Database').log(`Applied migrations: ${applied.join(', ')}`);
            }
            return dataSource;
          },
        },
        DataSourceCloser,
      ],
      exports: [DataSource],
    };
  }
}

/** Applies one service's migrations and disconnects: what the Kubernetes migration Job runs. */
export async function migrateService(
  url: string,
  options: DatabaseOptions,
  serviceRole?: string,
): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions(url, options));
  await dataSource.initialize();
  try {
    const applied = await migrate(dataSource, options.schema, options.sqlDir);
    if (serviceRole) await grantSchemaUse(dataSource, options.schema, serviceRole);
    return applied;
  } finally {
    await dataSource.destroy();
  }
}

/** A PostgreSQL role name as operators write them: lower case, digits and _, unquoted. */
export const ROLE_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Lets the service's own role read and write its schema, and nothing more: the migrations' role owns the
 * schema and its objects (so only it can change them); the service's role may use the schema, read and
 * write its rows, use its sequences and call its functions, now and for what later migrations add.
 */
async function grantSchemaUse(dataSource: DataSource, schema: string, role: string): Promise<void> {
  if (!ROLE_PATTERN.test(role)) throw new Error(`Not a role name: ${role}`);
  for (const statement of [
    `GRANT USAGE ON SCHEMA "${schema}" TO ${role}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA "${schema}" TO ${role}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA "${schema}" TO ${role}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${role}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA "${schema}" GRANT EXECUTE ON FUNCTIONS TO ${role}`,
  ])
    await dataSource.query(statement);
}

/** A connection checked out of a DataSource's pool (see `checkOutConnection`). */
export interface CheckedOutConnection {
  client: PoolClient;
  /** Gives it back; with an error (or once it has failed) the pool closes it instead of keeping it. */
  release(err?: Error): void;
}

/**
 * Checks a connection out of the DataSource's pool, without a TypeORM QueryRunner. A checked-out pg client
 * has no listener for its errors, and one that fails (the server restarted, the backend was terminated)
 * would be an uncaught 'error' event: this listens for as long as it is out, tells `onLost`, and closes it
 * on release.
 */
export async function checkOutConnection(
  dataSource: DataSource,
  onLost: (err: Error) => void = () => undefined,
): Promise<CheckedOutConnection> {
  const [client, giveBack] = (await (dataSource.driver as PostgresDriver).obtainMasterConnection()) as [
    PoolClient,
    (err?: Error) => void,
  ];
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost = err;
    onLost(err);
  };
  client.on('error', onError);
  return {
    client,
    release: (err) => {
      client.removeListener('error', onError);
      giveBack(err ?? lost);
    },
  };
}

/**
 * Runs one prepared statement (on its pg connection, skipping TypeORM's query building): for the hot paths
 * (a room's join and vote). PostgreSQL parses and plans a named statement once per connection. Given an
 * EntityManager it runs inside that manager's transaction; given the DataSource it runs on a connection of
 * the pool as a transaction of its own (one statement, one round trip, committed or not at all).
 */
export async function preparedQuery<Row>(
  target: EntityManager | DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const query = { name, text, values };
  if (target instanceof DataSource) {
    const connection = await checkOutConnection(target);
    try {
      return (await connection.client.query<Row & QueryResultRow>(query)).rows;
    } finally {
      connection.release();
    }
  }
  if (!target.queryRunner) throw new Error('preparedQuery runs inside a transaction or on the DataSource');
  const client = (await target.queryRunner.connect()) as PoolClient;
  return (await client.query<Row & QueryResultRow>(query)).rows;
}
