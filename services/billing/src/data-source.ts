/** For the TypeORM CLI: `npx typeorm migration:generate -d services/billing/dist/data-source.js`. */
import { dataSourceOptions } from '@forkvote/platform';
import { DataSource } from 'typeorm';
import { billingDatabase } from './billing.module';

export default new DataSource(
  dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/forkvote', {
    schema: 'billing',
    ...billingDatabase,
  }),
);
