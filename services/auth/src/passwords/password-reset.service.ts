import { Injectable } from '@nestjs/common';
import { MESSAGES, RequestPasswordResetDto, ResetPasswordWithTokenDto } from '@forkvote/contracts';
import { fail } from '@forkvote/platform';
import * as argon2 from 'argon2';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { hashPassword } from '../accounts/accounts.service';
import { AuthConfig } from '../auth.config';
import { PasswordResetToken } from '../entities/password-reset-token.entity';
import { User } from '../entities/user.entity';
import { Mailer } from '../mail/mailer';
import { SessionsService } from '../sessions/sessions.service';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

@Injectable()
export class PasswordResetService {
  constructor(
    private readonly config: AuthConfig,
    private readonly dataSource: DataSource,
    private readonly mailer: Mailer,
    private readonly sessions: SessionsService,
  ) {}

  /** Answers the same whether or not the email belongs to an account, so it reveals nothing. */
  async requestReset(dto: RequestPasswordResetDto): Promise<{ message: string }> {
    const user = await this.dataSource.getRepository(User).findOneBy({ email: dto.email });
    if (user) {
      const token = randomBytes(32).toString('base64url');
      await this.dataSource.getRepository(PasswordResetToken).insert({
        userId: user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      const link = `${this.config.PUBLIC_URL}/reset-password?token=${token}`;
      await this.mailer.send({
        to: user.email,
        subject: 'Reset your ForkVote password',
        text: `Hi ${user.name},\n\nSomeone asked to reset the password of your ForkVote account. To choose a new one, open this link within the next hour:\n\n${link}\n\nIf it wasn't you, ignore this mail; your password stays as it is.\n`,
      });
    }
    return { message: MESSAGES.resetPasswordEmailSent };
  }

  /** Single use: the token is spent in the same transaction that changes the password. */
  async reset(dto: ResetPasswordWithTokenDto): Promise<{ message: string }> {
    const revoked = await this.dataSource.transaction(async (manager) => {
      const tokens = manager.getRepository(PasswordResetToken);
      const token = await tokens.findOne({
        where: { tokenHash: sha256(dto.token), usedAt: IsNull(), expiresAt: MoreThan(new Date()) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!token) fail(404, MESSAGES.resetTokenInvalid);
      const users = manager.getRepository(User);
      const user = await users.findOneByOrFail({ id: token.userId });
      if (await argon2.verify(user.passwordHash, dto.password)) fail(400, MESSAGES.resetSamePassword);
      await users.update(
        { id: user.id },
        { passwordHash: await hashPassword(dto.password), tokenVersion: user.tokenVersion + 1 },
      );
      // Every outstanding link of this user dies with the one used.
      await tokens.update({ userId: user.id, usedAt: IsNull() }, { usedAt: new Date() });
      // Sessions opened before the reset (perhaps by whoever knew the old password) end with it.
      return this.sessions.revokeAllIn(manager, user.id);
    });
    await this.sessions.forget(revoked);
    return { message: MESSAGES.resetSuccess };
  }
}
