import { Module } from '@nestjs/common';
import { PlatformModule } from '@forkvote/platform';
import { User } from './entities/user.entity';
import { Initial1763900000000 } from './migrations/1763900000000-initial';

export const authDatabase = { entities: [User], migrations: [Initial1763900000000] };

@Module({
  imports: [PlatformModule.forService('auth', authDatabase)],
})
export class AuthModule {}
