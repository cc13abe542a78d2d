/** Saved groups' request bodies (rules, texts and answers in group-rules.ts). */
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, IsUUID, Min } from 'class-validator';
import { MESSAGES } from './messages';
import { GROUP_MESSAGES, GROUP_NAME_MAX } from './group-rules';
import { WaitingRoomIdField } from './rooms';
import { Text, Trim } from './validation';

export * from './group-rules';

/** POST /api/v1/groups: the host keeps the people of a session. */
export class SaveGroupDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @Trim()
  @IsString({ message: GROUP_MESSAGES.nameRequired })
  @IsNotEmpty({ message: GROUP_MESSAGES.nameRequired })
  // One line of at most GROUP_NAME_MAX characters (code points, as the column counts them).
  @Text(GROUP_NAME_MAX, {
    message: ({ value }) =>
      typeof value === 'string' && [...value].length > GROUP_NAME_MAX
        ? GROUP_MESSAGES.nameTooLong
        : MESSAGES.controlCharacters,
  })
  name: string;
}

/** A group in a path: /api/v1/groups/{groupId}. */
export class GroupParams {
  @IsUUID('all', { message: GROUP_MESSAGES.notFound })
  groupId: string;
}

/** A member in a path: /api/v1/groups/{groupId}/members/{memberId}. */
export class GroupMemberParams extends GroupParams {
  @Type(() => Number)
  @IsInt({ message: GROUP_MESSAGES.memberNotFound })
  @Min(0, { message: GROUP_MESSAGES.memberNotFound })
  memberId: number;
}

/** An invitation in a path: /api/v1/me/invitations/{waitingRoomId}. */
export class InvitationParams {
  @WaitingRoomIdField()
  waitingRoomId: string;
}
