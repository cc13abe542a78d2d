// @ts-check
/**
 * Applies every service's migrations and exits: the Kubernetes migration Job, once per release (and anyone
 * who runs services with MIGRATIONS_ON_START=false). Uses the builds, so run `npm run build` first.
 */
'use strict';
const path = require('node:path');
const { SERVICES, ROOT } = require('@forkvote/launcher');

async function main() {
  const { migrateService } = require(path.join(ROOT, 'libs/platform/dist'));
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/forkvote';
  // `node scripts/migrate.js rooms` migrates one service (each step of the Job, in that service's image);
  // no argument: all.
  const wanted = process.argv.slice(2);
  // With DATABASE_ROLE_PREFIX (Kubernetes' migration Job: `forkvote_`), the role `<prefix><service>` is
  // granted the use of that service's schema, and only that: the services connect as those roles.
  const rolePrefix = process.env.DATABASE_ROLE_PREFIX ?? '';
  for (const service of wanted.length > 0 ? wanted : SERVICES) {
    if (!SERVICES.includes(service)) throw new Error(`Unknown service ${service}`);
    const moduleFile = path.join(ROOT, 'services', service, 'dist', `${service}.module.js`);
    const database = require(moduleFile)[`${service}Database`];
    const role = rolePrefix ? `${rolePrefix}${service}` : undefined;
    const applied = await migrateService(url, { schema: service, ...database }, role);
    console.log(JSON.stringify({ service, applied, ...(role ? { grantedTo: role } : {}) }));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`Migrations failed: ${err instanceof Error ? err.stack : err}`);
    process.exit(1);
  },
);
