import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const ADMIN_URL = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const run = promisify(execFile);
const urlAs = (role: string, database: string) => {
  const url = new URL(ADMIN_URL);
  url.username = role;
  url.pathname = `/${database}`;
  return url.toString();
};

/**
 * The migration Job as Kubernetes runs it: `scripts/migrate.js` as the role that owns the schemas, with
 * DATABASE_ROLE_PREFIX naming the services' roles. Each service's role may then read and write its own
 * schema (tables, sequences, functions, the outbox's trigger) and nothing else: no other schema, no DDL.
 */
describe('migrations by the owner role, services by their own', () => {
  const id = randomBytes(3).toString('hex');
  const database = `forkvote_roles_${id}`;
  const owner = `fvt_${id}_owner`;
  const prefix = `fvt_${id}_`;
  const admin = new Client({ connectionString: ADMIN_URL });

  beforeAll(async () => {
    await admin.connect();
    for (const role of [owner, `${prefix}rooms`, `${prefix}auth`])
      await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`CREATE DATABASE ${database} OWNER ${owner}`);
  });

  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    for (const role of [`${prefix}rooms`, `${prefix}auth`, owner])
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  it('grants each service role the use of its own schema only', async () => {
    const { stdout } = await run('node', [join(__dirname, '..', 'migrate.js'), 'rooms', 'auth'], {
      env: { ...process.env, DATABASE_URL: urlAs(owner, database), DATABASE_ROLE_PREFIX: prefix },
    });
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.service, l.grantedTo])).toEqual([
      ['rooms', `${prefix}rooms`],
      ['auth', `${prefix}auth`],
    ]);

    const rooms = new Client({ connectionString: urlAs(`${prefix}rooms`, database) });
    await rooms.connect();
    try {
      // Its own rows, sequences and the outbox's trigger function.
      await rooms.query(
        `INSERT INTO rooms.outbox (room_id, event, data) VALUES (gen_random_uuid(), 'X', '{}')`,
      );
      expect((await rooms.query('SELECT count(*)::int AS n FROM rooms.outbox')).rows[0].n).toBe(1);
      await rooms.query('DELETE FROM rooms.outbox');
      // Not another service's schema, and no change to its own.
      await expect(rooms.query('SELECT 1 FROM auth.users LIMIT 1')).rejects.toThrow(/permission denied/);
      await expect(rooms.query('CREATE TABLE rooms.extra (id int)')).rejects.toThrow(/permission denied/);
      await expect(rooms.query('DROP TABLE rooms.outbox')).rejects.toThrow(/must be owner/);
    } finally {
      await rooms.end();
    }
  });
});
