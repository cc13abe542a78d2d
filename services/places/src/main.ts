import { runService } from '@forkvote/platform';
import { PlacesModule } from './places.module';

void runService('places', PlacesModule);
