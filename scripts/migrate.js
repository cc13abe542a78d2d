// @ts-check
/**
 * Applies every service's migrations and exits: the Kubernetes migration Job (and anyone who runs
 * services with MIGRATIONS_ON_START=false). Uses the builds, so run `npm run build` first.
 */
'use strict';
const path = require('node:path');
const { SERVICES, ROOT } = require('@forkvote/launcher');

async function main() {
  const { migrateService } = require(path.join(ROOT, 'libs/platform/dist'));
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/forkvote';
  // `node scripts/migrate.js rooms` migrates one service (the init step of its pods); no argument: all.
  const wanted = process.argv.slice(2);
  for (const service of wanted.length > 0 ? wanted : SERVICES) {
    if (!SERVICES.includes(service)) throw new Error(`Unknown service ${service}`);
    const moduleFile = path.join(ROOT, 'services', service, 'dist', `${service}.module.js`);
    const database = require(moduleFile)[`${service}Database`];
    const applied = await migrateService(url, { schema: service, ...database });
    console.log(JSON.stringify({ service, applied }));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`Migrations failed: ${err instanceof Error ? err.stack : err}`);
    process.exit(1);
  },
);
