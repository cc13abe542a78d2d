import { Module } from '@nestjs/common';
import { PlatformModule } from '@forkvote/platform';
import { Search } from './entities/search.entity';
import { Initial1763900000000 } from './migrations/1763900000000-initial';
import { PlacesConfig } from './places.config';
import { PlacesHandler } from './places.handler';
import { PLACES_PROVIDERS, PlacesService, ProviderSet } from './places.service';
import { DemoPlacesProvider } from './providers/demo.provider';
import { GooglePlacesProvider } from './providers/google-places.provider';
import { OsmPlacesProvider } from './providers/osm.provider';

export const placesDatabase = { entities: [Search], migrations: [Initial1763900000000] };

@Module({
  imports: [PlatformModule.forService('places', placesDatabase, PlacesConfig)],
  controllers: [PlacesHandler],
  providers: [
    PlacesService,
    {
      provide: PLACES_PROVIDERS,
      inject: [PlacesConfig],
      useFactory: (config: PlacesConfig): ProviderSet => ({
        google: new GooglePlacesProvider(config),
        osm: new OsmPlacesProvider(config),
        demo: new DemoPlacesProvider(),
      }),
    },
  ],
})
export class PlacesModule {}
