import { Module } from '@nestjs/common';
import { PlatformModule } from '@forkvote/platform';
import { Member } from './entities/member.entity';
import { Room } from './entities/room.entity';
import { Initial1763900000000 } from './migrations/1763900000000-initial';

export const roomsDatabase = { entities: [Room, Member], migrations: [Initial1763900000000] };

@Module({
  imports: [PlatformModule.forService('rooms', roomsDatabase)],
})
export class RoomsModule {}
