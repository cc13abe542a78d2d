import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH,
  FeedbackCommand,
  LoginCommand,
  MESSAGES,
  RegisterCommand,
  RequestPasswordResetCommand,
  ResetPasswordCommand,
  SavedLimitsQuery,
  SessionCheck,
  SubscribeCommand,
  UpdateMeCommand,
  UserScoped,
} from '@forkvote/contracts';
import { fail } from '@forkvote/platform';
import { DataSource } from 'typeorm';
import { AuthConfig } from '../auth.config';
import { Feedback } from '../entities/feedback.entity';
import { Mailer } from '../mail/mailer';
import { PasswordResetService } from '../passwords/password-reset.service';
import { SessionsService } from '../sessions/sessions.service';
import { AccountsService } from './accounts.service';

/** The auth service's requests; the platform's RPC pipe has validated each payload against its command. */
@Controller()
export class AccountsHandler {
  constructor(
    private readonly accounts: AccountsService,
    private readonly passwords: PasswordResetService,
    private readonly sessions: SessionsService,
    private readonly mailer: Mailer,
    private readonly dataSource: DataSource,
    private readonly config: AuthConfig,
  ) {}

  @MessagePattern(AUTH.register)
  register(@Payload() command: RegisterCommand) {
    return this.accounts.register(command.body, command.ip);
  }

  @MessagePattern(AUTH.login)
  login(@Payload() command: LoginCommand) {
    return this.accounts.login(command.body);
  }

  @MessagePattern(AUTH.verify)
  verify(@Payload() command: UserScoped) {
    return this.accounts.verify(command.userId);
  }

  @MessagePattern(AUTH.logout)
  logout(@Payload() command: SessionCheck) {
    return this.accounts.logout(command.jti, command.userId);
  }

  /** A gateway's question on a cache miss: is this session still live in the record? */
  @MessagePattern(AUTH.checkSession)
  checkSession(@Payload() command: SessionCheck) {
    return this.sessions.check(command.jti, command.userId);
  }

  @MessagePattern(AUTH.subscribe)
  subscribe(@Payload() command: SubscribeCommand) {
    return this.accounts.subscribe(command.userId, command.body.plan);
  }

  @MessagePattern(AUTH.requestPasswordReset)
  requestReset(@Payload() command: RequestPasswordResetCommand) {
    return this.passwords.requestReset(command.body);
  }

  @MessagePattern(AUTH.resetPassword)
  reset(@Payload() command: ResetPasswordCommand) {
    return this.passwords.reset(command.body);
  }

  @MessagePattern(AUTH.getMe)
  getMe(@Payload() command: UserScoped) {
    return this.accounts.getMe(command.userId);
  }

  @MessagePattern(AUTH.updateMe)
  updateMe(@Payload() command: UpdateMeCommand) {
    return this.accounts.updateMe(command.userId, command.body);
  }

  @MessagePattern(AUTH.savedLimits)
  savedLimits(@Payload() query: SavedLimitsQuery) {
    return this.accounts.savedLimits(query.userIds);
  }

  @MessagePattern(AUTH.feedback)
  async feedback(@Payload() command: FeedbackCommand) {
    await this.dataSource.getRepository(Feedback).insert(command.body);
    return { message: MESSAGES.feedbackThanks };
  }

  @MessagePattern(AUTH.outbox)
  outbox() {
    if (this.config.NODE_ENV === 'production') fail(404, 'Not found');
    return this.mailer.outbox();
  }
}
