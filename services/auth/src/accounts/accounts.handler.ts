import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH,
  FeedbackDto,
  LoginDto,
  MESSAGES,
  RegisterDto,
  RequestPasswordResetDto,
  ResetPasswordWithTokenDto,
  SessionCheck,
  SubscribeDto,
  UpdateMeDto,
} from '@forkvote/contracts';
import { fail, validated } from '@forkvote/platform';
import { DataSource } from 'typeorm';
import { AuthConfig } from '../auth.config';
import { Feedback } from '../entities/feedback.entity';
import { Mailer } from '../mail/mailer';
import { PasswordResetService } from '../passwords/password-reset.service';
import { SessionsService } from '../sessions/sessions.service';
import { AccountsService } from './accounts.service';

interface UserScoped {
  userId: string;
}

/** The auth service's requests. Payloads are validated again here with the gateway's DTO classes. */
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
  register(@Payload() payload: { body: unknown; ip?: string }) {
    return this.accounts.register(validated(RegisterDto, payload.body), payload.ip);
  }

  @MessagePattern(AUTH.login)
  login(@Payload() payload: { body: unknown }) {
    return this.accounts.login(validated(LoginDto, payload.body));
  }

  @MessagePattern(AUTH.verify)
  verify(@Payload() payload: UserScoped) {
    return this.accounts.verify(payload.userId);
  }

  @MessagePattern(AUTH.logout)
  logout(@Payload() payload: SessionCheck) {
    return this.accounts.logout(payload.jti, payload.userId);
  }

  /** A gateway's question on a cache miss: is this session still live in the record? */
  @MessagePattern(AUTH.checkSession)
  checkSession(@Payload() payload: SessionCheck) {
    return this.sessions.check(payload.jti, payload.userId);
  }

  @MessagePattern(AUTH.subscribe)
  subscribe(@Payload() payload: UserScoped & { body: unknown }) {
    return this.accounts.subscribe(payload.userId, validated(SubscribeDto, payload.body).plan);
  }

  @MessagePattern(AUTH.requestPasswordReset)
  requestReset(@Payload() payload: { body: unknown }) {
    return this.passwords.requestReset(validated(RequestPasswordResetDto, payload.body));
  }

  @MessagePattern(AUTH.resetPassword)
  reset(@Payload() payload: { body: unknown }) {
    return this.passwords.reset(validated(ResetPasswordWithTokenDto, payload.body));
  }

  @MessagePattern(AUTH.getMe)
  getMe(@Payload() payload: UserScoped) {
    return this.accounts.getMe(payload.userId);
  }

  @MessagePattern(AUTH.updateMe)
  updateMe(@Payload() payload: UserScoped & { body: unknown }) {
    return this.accounts.updateMe(payload.userId, validated(UpdateMeDto, payload.body));
  }

  @MessagePattern(AUTH.feedback)
  async feedback(@Payload() payload: { body: unknown }) {
    const dto = validated(FeedbackDto, payload.body);
    await this.dataSource.getRepository(Feedback).insert(dto);
    return { message: MESSAGES.feedbackThanks };
  }

  @MessagePattern(AUTH.outbox)
  outbox() {
    if (this.config.NODE_ENV === 'production') fail(404, 'Not found');
    return this.mailer.outbox();
  }
}
