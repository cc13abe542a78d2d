import { Module } from '@nestjs/common';
import { PlatformModule } from '@forkvote/platform';
import { AccountsHandler } from './accounts/accounts.handler';
import { AccountsService } from './accounts/accounts.service';
import { AuthConfig } from './auth.config';
import { BotCheck } from './bot-check/bot-check';
import { Feedback } from './entities/feedback.entity';
import { PasswordResetToken } from './entities/password-reset-token.entity';
import { Session } from './entities/session.entity';
import { User } from './entities/user.entity';
import { Mailer } from './mail/mailer';
import { Initial1763900000000 } from './migrations/1763900000000-initial';
import { ResetTokensAndFeedback1763900000001 } from './migrations/1763900000001-reset-tokens-and-feedback';
import { Sessions1763900000002 } from './migrations/1763900000002-sessions';
import { PrivateLimits1763900000003 } from './migrations/1763900000003-private-limits';
import { PasswordResetService } from './passwords/password-reset.service';
import { SessionsService } from './sessions/sessions.service';

export const authDatabase = {
  entities: [User, PasswordResetToken, Feedback, Session],
  migrations: [
    Initial1763900000000,
    ResetTokensAndFeedback1763900000001,
    Sessions1763900000002,
    PrivateLimits1763900000003,
  ],
};

@Module({
  imports: [PlatformModule.forService('auth', authDatabase, AuthConfig)],
  controllers: [AccountsHandler],
  providers: [AccountsService, PasswordResetService, SessionsService, BotCheck, Mailer],
})
export class AuthModule {}
