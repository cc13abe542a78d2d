import '@forkvote/platform/dist/instrument';
import { runService } from '@forkvote/platform';
import { PlacesConfig } from './places.config';
import { PlacesModule } from './places.module';

void runService('places', PlacesModule, PlacesConfig);
