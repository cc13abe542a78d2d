import { Module } from '@nestjs/common';
import { join } from 'node:path';
import { PlatformModule } from '@forkvote/platform';
import { Member } from './entities/member.entity';
import { RoomPlace } from './entities/room-place.entity';
import { Room } from './entities/room.entity';
import { BallotSubmission } from './entities/ballot-submission.entity';
import { Initial1763900000000 } from './migrations/1763900000000-initial';
import { Voting1763900000001 } from './migrations/1763900000001-voting';
import { HotPathFunctions1763900000002 } from './migrations/1763900000002-hot-path-functions';
import { BallotVotesInOneRow1763900000003 } from './migrations/1763900000003-ballot-votes-in-one-row';
import { OutboxAndCommandLog1763900000004 } from './migrations/1763900000004-outbox-and-command-log';
import { OutboxNotify1763900000005 } from './migrations/1763900000005-outbox-notify';
import { OutboxTraceparent1763900000006 } from './migrations/1763900000006-outbox-traceparent';
import { Decisions1763900000007 } from './migrations/1763900000007-decisions';
import { History1763900000008 } from './migrations/1763900000008-history';
import { Push1763900000009 } from './migrations/1763900000009-push';
import { PrivateLimits1763900000010 } from './migrations/1763900000010-private-limits';
import { SavedGroups1763900000011 } from './migrations/1763900000011-saved-groups';
import { PushService } from './push/push.service';
import { HistoryService } from './history.service';
import { DecisionsService } from './decisions.service';
import { LimitsService } from './limits.service';
import { GroupsService } from './groups.service';
import { CommandLog } from './outbox/command-log';
import { RoomEventsOutbox } from './outbox/room-events.outbox';
import { RoomsHandler } from './rooms.handler';
import { MembershipService } from './membership.service';
import { RoomStore } from './room.store';
import { VotingService } from './voting.service';

export const roomsDatabase = {
  entities: [Room, Member, RoomPlace, BallotSubmission],
  migrations: [
    Initial1763900000000,
    Voting1763900000001,
    HotPathFunctions1763900000002,
    BallotVotesInOneRow1763900000003,
    OutboxAndCommandLog1763900000004,
    OutboxNotify1763900000005,
    OutboxTraceparent1763900000006,
    Decisions1763900000007,
    History1763900000008,
    Push1763900000009,
    PrivateLimits1763900000010,
    SavedGroups1763900000011,
  ],
  // join_room, cast_ballot and the batch rules they share, applied after the migrations (see sql/).
  sqlDir: join(__dirname, 'sql'),
};

@Module({
  imports: [PlatformModule.forService('rooms', roomsDatabase)],
  controllers: [RoomsHandler],
  providers: [
    RoomStore,
    MembershipService,
    VotingService,
    DecisionsService,
    HistoryService,
    PushService,
    LimitsService,
    GroupsService,
    RoomEventsOutbox,
    CommandLog,
  ],
})
export class RoomsModule {}
