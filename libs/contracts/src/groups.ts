/** Saved groups' request bodies (rules, texts and answers in group-rules.ts). */
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, IsUUID, MaxLength, Min } from 'class-validator';
import { GROUP_MESSAGES, GROUP_NAME_MAX } from './group-rules';
import { WaitingRoomIdField } from './rooms';
import { Trim } from './validation';

export * from './group-rules';

/** POST /api/v1/groups: the host keeps the people of a session. */
export class SaveGroupDto {
  @WaitingRoomIdField()
  waitingRoomId: string;

  @Trim()
  @IsString({ message: GROUP_MESSAGES.nameRequired })
  @IsNotEmpty({ message: GROUP_MESSAGES.nameRequired })
  @MaxLength(GROUP_NAME_MAX, { message: GROUP_MESSAGES.nameTooLong })
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
