import '@forkvote/platform/dist/instrument';
import { runService } from '@forkvote/platform';
import { AuthConfig } from './auth.config';
import { AuthModule } from './auth.module';

void runService('auth', AuthModule, AuthConfig);
