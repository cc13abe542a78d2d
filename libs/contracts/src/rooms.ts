import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { NearbySearchDto, Place } from './places';
import { DECISION_RULES, ROOM_ID_PATTERN, ROOM_MESSAGES, USER_NAME_MAX } from './room-rules';
import { Optional, Text, TEXT_COLUMNS, Trim } from './validation';
import type { DecisionRule, RoomEventName } from './room-rules';
import { DECISION_MESSAGES } from './decision-rules';
import type { DrawnPick, HoldoutQuestion, HoldoutRound } from './decision-rules';

export * from './room-rules';

/** A waiting room ID field: trimmed, upper-cased, exactly 6 letters or digits. */
export const WaitingRoomIdField = (): PropertyDecorator => (target, key) => {
  Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))(target, key);
  IsString({ message: ROOM_MESSAGES.invalidRoomId })(target, key);
  Matches(ROOM_ID_PATTERN, { message: ROOM_MESSAGES.invalidRoomId })(target, key);
};

/** A person's name in a room: trimmed, required, at most USER_NAME_MAX characters. */
const UserNameField = (): PropertyDecorator => (target, key) => {
  Trim()(target, key);
  IsString({ message: ROOM_MESSAGES.nameRequired })(target, key);
  IsNotEmpty({ message: ROOM_MESSAGES.nameRequired })(target, key);
  Text(USER_NAME_MAX, { message: ROOM_MESSAGES.nameTooLong })(target, key);
};

export class CreateRoomDto {
  /** Ignored: the host is the logged-in account. Accepted because the SPEC's client sends it. */
  @Optional()
  @IsString()
  @Text(TEXT_COLUMNS.userId)
  userId?: string;

  @UserNameField()
  userName: string;
}

export class JoinRoomDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @UserNameField()
  userName: string;

  /** A guest's id from an earlier join of this room; honoured only with that room's cookie. */
  @Optional()
  @IsString()
  @Text(TEXT_COLUMNS.userId)
  userId?: string;
}

/** A member acting in a room as themselves: the room and the user id its cookie must match. */
export class RoomMemberDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @IsString()
  @IsNotEmpty()
  @Text(TEXT_COLUMNS.userId)
  userId: string;
}

/** Leave: the member and their room. (The same class, so the API document names one schema for it.) */
export const LeaveRoomDto = RoomMemberDto;
export type LeaveRoomDto = RoomMemberDto;

export class VoteItemDto {
  @IsString()
  @IsNotEmpty()
  @Text(TEXT_COLUMNS.placeId)
  placeId: string;

  @IsIn(['up', 'down'], { message: 'voteType must be up or down' })
  voteType: 'up' | 'down';
}

export class VoteDto extends RoomMemberDto {
  @IsArray({ message: ROOM_MESSAGES.voteAllPlaces })
  @ArrayMinSize(1, { message: ROOM_MESSAGES.voteAllPlaces })
  @ArrayMaxSize(5, { message: ROOM_MESSAGES.voteAllPlaces })
  @ValidateNested({ each: true })
  @Type(() => VoteItemDto)
  votes: VoteItemDto[];
}

export class NextBatchDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @Type(() => Number)
  @IsInt({ message: 'nextBatchIndex must be a whole number' })
  @Min(1, { message: 'nextBatchIndex must be a whole number' })
  nextBatchIndex: number;
}

/** The SPEC's start payload: a nearby search, and (not in the SPEC) the room's decision rule. */
export class StartRoomDto extends NearbySearchDto {
  @Optional()
  @IsIn(DECISION_RULES, { message: DECISION_MESSAGES.invalidRule })
  decisionRule?: DecisionRule;

  /** "Prefer new places": the places the host chose in the last 30 days go to the last batch. */
  @Optional()
  @IsBoolean({ message: 'preferNewPlaces must be true or false' })
  preferNewPlaces?: boolean;
}

export interface RoomUser {
  userId: string;
  userName: string;
}

export type RoomState = 'waiting' | 'voting' | 'results' | 'closed';

export interface WaitingRoom {
  waitingRoomId: string;
  users: RoomUser[];
  createdBy: RoomUser;
  state: RoomState;
  batchIndex: number;
  placesCount: number;
  /** How the room decides (not in the SPEC; absent means the SPEC's unanimous rule). */
  decisionRule?: DecisionRule;
}

export interface Ballot {
  placeId: string;
  place: Place;
  upVotes: number;
  downVotes: number;
  /** Share of voters who said yes, 0-100. */
  approval: number;
  votes: { userId: string; voteType: 'up' | 'down' }[];
}

export interface BallotsResult {
  batchIndex: number;
  voterCount: number;
  ballots: Ballot[];
  /** Place ids that won: under the unanimous rule, those every voter approved (SPEC §4). */
  winners: string[];
  /** The rule the winners follow (absent: the SPEC's unanimous rule). */
  decisionRule?: DecisionRule;
  /** Places every holdout agreed to after a second look: unanimous winners now. */
  agreed?: string[];
}

/** The claims of the room-member token (an httpOnly cookie): one browser, one room, one user. Signed by rooms. */
export interface RoomMemberClaims {
  roomId: string;
  code: string;
  userId: string;
  userName: string;
}

/** The claims of the room-host token, the bearer the create call answers; start and next-batch need it. */
export interface RoomHostClaims {
  roomId: string;
  code: string;
  userId: string;
}

/** Room tokens outlive any evening of voting; a room left idle is closed long before. */
export const ROOM_TOKEN_LIFETIME_SECONDS = 24 * 3600;

/** Answer of create (SPEC §7: token, waitingRoom, userId, userName). `token` is the host's bearer token. */
export interface CreateRoomAnswer {
  token: string;
  waitingRoom: WaitingRoom;
  userId: string;
  userName: string;
}

export interface JoinRoomAnswer {
  waitingRoom: WaitingRoom;
  userId: string;
  userName: string;
}

/** GET /api/v1/waiting-room/current: everything a member needs after a reload. */
export interface RoomSnapshot {
  waitingRoom: WaitingRoom;
  userId: string;
  userName: string;
  isHost: boolean;
  places: Place[];
  usersVoted: string[];
  voted: boolean;
  ballots: BallotsResult | null;
  lastEventId: string | null;
  /** The current batch's holdout round, if the host asked the holdouts. */
  holdout?: HoldoutRound | null;
  /** The current batch's drawn pick, if the host asked for one. */
  pick?: DrawnPick | null;
  /** How many places the members' private limits left out at the start (absent: none). */
  leftOutByLimits?: number;
}

/** POST /waiting-room/nudge (host only): the room whose pending voters to nudge. */
export class NudgeDto {
  @WaitingRoomIdField()
  waitingRoomId: string;
}

export interface NudgeAnswer {
  /** The members nudged now. */
  nudged: string[];
  /** Members who have not voted yet (nudged now or within the last NUDGE_INTERVAL_SECONDS). */
  pending: string[];
}

export interface NextBatchAnswer {
  batchIndex: number;
  noMorePlaces: boolean;
}

/**
 * Every room event by name, with its payload (SPEC §4). The rooms outbox writes them, the gateway's hub
 * relays them, the web app's event hook reads them: one definition for all three. Payloads as published
 * also carry `sentAt` (epoch ms).
 */
export interface RoomEventMap {
  SUBSCRIBED_TO_SSE: { waitingRoomId: string; userId: string; userName: string };
  USER_JOINED: { users: RoomUser[]; userId: string; userName: string };
  USER_LEFT: { userId: string; userName: string; users: RoomUser[]; isHost: boolean; roomClosed: boolean };
  WAITING_ROOM_STARTED: {
    places: Place[];
    batchIndex: number;
    demo: boolean;
    decisionRule?: DecisionRule;
    /** How many places the members' private limits left out (absent: none). */
    leftOutByLimits?: number;
  };
  USER_VOTED: { userId: string; usersVoted: string[] };
  BALLOTS_SUBMITTED: BallotsResult;
  NEXT_BATCH_OF_PLACES: { nextBatchIndex: number; batchIndex: number };
  /** Not in the SPEC: the host reminds the members who have not voted on the batch (userIds). */
  NUDGE: { userIds: string[]; hostName: string; batchIndex: number };
  /** Not in the SPEC: the host chose how the room decides (in the waiting room). */
  DECISION_RULE_CHANGED: { decisionRule: DecisionRule };
  /** The host asked the holdouts of a batch with no winner: who is asked about which place. */
  HOLDOUT_ROUND_STARTED: { batchIndex: number; questions: HoldoutQuestion[] };
  /** A holdout answered one question (the answer itself stays private until the round ends). */
  HOLDOUT_ANSWERED: { batchIndex: number; placeId: string; userId: string; pending: string[] };
  /** Every holdout answered: the places they all agreed to, and the batch's results with them. */
  HOLDOUT_ROUND_ENDED: { batchIndex: number; agreed: string[]; result: BallotsResult };
  /** The server drew one place among the candidates; one draw per batch. */
  PICK_DRAWN: DrawnPick & { drawnAt: string };
  /** The room was opened for a saved group: its registered members were invited (told by Web Push too). */
  GROUP_INVITED: { groupName: string; hostName: string; invitedCount: number };
}

/** One room event: its name and the payload that name carries. */
export type RoomEventOf<E extends keyof RoomEventMap = keyof RoomEventMap> = {
  [Name in E]: { event: Name; data: RoomEventMap[Name] };
}[E];

/** Compile-time: ROOM_EVENTS and RoomEventMap name the same events. */
type SameNames = [RoomEventName] extends [keyof RoomEventMap]
  ? [keyof RoomEventMap] extends [RoomEventName]
    ? true
    : never
  : never;
export const ROOM_EVENT_NAMES_MATCH: SameNames = true;
