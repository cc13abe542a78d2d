import '@forkvote/platform/dist/instrument';
import { runService } from '@forkvote/platform';
import { RoomsModule } from './rooms.module';

void runService('rooms', RoomsModule);
