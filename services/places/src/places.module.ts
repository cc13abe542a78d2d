import { Module } from '@nestjs/common';
import { PlatformModule } from '@forkvote/platform';
import { Search } from './entities/search.entity';
import { Initial1763900000000 } from './migrations/1763900000000-initial';

export const placesDatabase = { entities: [Search], migrations: [Initial1763900000000] };

@Module({
  imports: [PlatformModule.forService('places', placesDatabase)],
})
export class PlacesModule {}
