import { runService } from '@forkvote/platform';
import { AuthModule } from './auth.module';

void runService('auth', AuthModule);
