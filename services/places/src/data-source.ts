/** For the TypeORM CLI: `npx typeorm migration:generate -d services/places/dist/data-source.js`. */
import { dataSourceOptions } from '@forkvote/platform';
import { DataSource } from 'typeorm';
import { placesDatabase } from './places.module';

export default new DataSource(
  dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/forkvote', {
    schema: 'places',
    ...placesDatabase,
  }),
);
