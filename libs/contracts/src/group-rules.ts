/**
 * Saved groups (docs/groups.md): a host keeps the people of a session as a named group and starts with
 * it again, inviting its registered members. Texts and wire types, safe for the browser; the request
 * bodies are in groups.ts.
 */
import type { DecisionRule } from './room-rules';
import type { PriceLevel, RankPreference } from './search-rules';

export const GROUP_NAME_MAX = 40;

export const GROUP_MESSAGES = {
  nameRequired: 'Please give the group a name.',
  nameTooLong: `A group name is at most ${GROUP_NAME_MAX} characters.`,
  notFound: 'This group does not exist.',
  ownerOnly: 'Only the person who saved this group can do that.',
  hostOnly: 'Only the host of this session can save its group.',
  ownerStays: 'You saved this group: delete it instead of leaving it.',
  memberNotFound: 'This person is not in the group.',
  invitationGone: 'This invitation is no longer open.',
  savedHint: 'Start with it from your profile or the create page.',
} as const;

/** "Hana invited you to Friday lunch" (the invitee's home card and notification). */
export const invitationText = (hostName: string, groupName: string) =>
  `${hostName} invited you to ${groupName}`;

export interface GroupMember {
  /** Stable within the group: what removing someone names. */
  memberId: number;
  userName: string;
  /** An account (invited when the group starts again); guests are kept as names only. */
  registered: boolean;
  isOwner: boolean;
  isMe: boolean;
}

/** The search of the session a group was saved from: its next rooms start from it. */
export interface GroupSearch {
  latitude: number;
  longitude: number;
  radiusInMeters: number;
  includedTypes?: string[];
  excludedTypes?: string[];
  rankPreference?: RankPreference;
  openNow?: boolean;
  priceLevels?: PriceLevel[];
}

export interface SavedGroup {
  groupId: string;
  name: string;
  ownerName: string;
  isOwner: boolean;
  /** How the group's rooms decide (the rule of the session it was saved from). */
  decisionRule: DecisionRule;
  /** Where and what the session searched (null: it never started voting). */
  search: GroupSearch | null;
  members: GroupMember[];
  createdAt: string;
  /** When a room last started with this group, if ever. */
  lastStartedAt: string | null;
}

/** GET /api/v1/groups: the groups the signed-in user saved or belongs to. */
export interface GroupsAnswer {
  groups: SavedGroup[];
}

export interface Invitation {
  waitingRoomId: string;
  groupId: string;
  groupName: string;
  hostName: string;
  invitedAt: string;
}

/** GET /api/v1/me/invitations: open rooms the user was invited to, newest first. */
export interface InvitationsAnswer {
  invitations: Invitation[];
}
