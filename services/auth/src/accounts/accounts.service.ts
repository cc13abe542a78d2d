import { Inject, Injectable, Logger } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  AccessTokenPayload,
  BILLING,
  CheckoutAnswer,
  Entitlement,
  LoginAnswer,
  LoginDto,
  MESSAGES,
  mergeLimits,
  NO_LIMITS,
  Plan,
  PrivateLimits,
  RegisterDto,
  UpdateMeDto,
  WireUser,
} from '@forkvote/contracts';
import { announceAccountChange, callService, fail, REDIS, SERVICE_CLIENT } from '@forkvote/platform';
import type Redis from 'ioredis';
import * as argon2 from 'argon2';
import { randomUUID } from 'node:crypto';
import { isUUID } from 'class-validator';
import { DataSource, In, IsNull, Not, QueryFailedError, Repository } from 'typeorm';
import { AuthConfig } from '../auth.config';
import { BotCheck } from '../bot-check/bot-check';
import { User } from '../entities/user.entity';
import { SessionsService } from '../sessions/sessions.service';

export const TERMS_VERSION = '1.0';
const NO_ENTITLEMENT: Entitlement = {
  canCreateRooms: false,
  status: 'none',
  hasLifetimeAccess: false,
  lifetimeAccessPurchasedAt: null,
};

/** argon2id with OWASP's recommended memory cost. */
export const hashPassword = (password: string) =>
  argon2.hash(password, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });

@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);
  private readonly users: Repository<User>;
  /** Verified against when the email is unknown, so both cases take the same time. */
  private readonly dummyHash = hashPassword(randomUUID());

  constructor(
    private readonly config: AuthConfig,
    dataSource: DataSource,
    private readonly botCheck: BotCheck,
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly sessions: SessionsService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.users = dataSource.getRepository(User);
  }

  async register(dto: RegisterDto, ip?: string): Promise<CheckoutAnswer> {
    if (!(await this.botCheck.passes(dto.recaptchaToken, 'register', ip)))
      fail(403, MESSAGES.recaptchaFailed);
    if (await this.users.existsBy({ email: dto.email })) fail(409, MESSAGES.emailInUse);

    let user: User;
    try {
      user = await this.users.save(
        this.users.create({
          email: dto.email,
          name: dto.name,
          passwordHash: await hashPassword(dto.password),
          contactMeForUserFeedback: dto.contactMeForUserFeedback ?? false,
          termsVersion: TERMS_VERSION,
        }),
      );
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505') {
        fail(409, MESSAGES.emailInUse);
      }
      throw err;
    }

    try {
      return await this.checkout(user, dto.plan);
    } catch (err) {
      // Without a checkout the account is unusable: remove it so the email can register again.
      await this.users.delete({ id: user.id });
      await callService(this.services, BILLING.discardCustomer, { userId: user.id }).catch(() => undefined);
      this.logger.error(`Registration of ${dto.email} rolled back: ${(err as { message?: string }).message}`);
      fail(503, MESSAGES.registrationFailed);
    }
  }

  async subscribe(userId: string, plan: Plan): Promise<CheckoutAnswer> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user) fail(401, MESSAGES.tokenVerificationFailed);
    const entitlement = await this.entitlement(userId);
    if (entitlement.canCreateRooms) fail(409, MESSAGES.alreadySubscribed);
    return this.checkout(user, plan);
  }

  private checkout(user: User, plan: Plan): Promise<CheckoutAnswer> {
    return callService(this.services, BILLING.createCheckout, {
      userId: user.id,
      email: user.email,
      plan,
    });
  }

  async login(dto: LoginDto): Promise<LoginAnswer> {
    const user = await this.users.findOneBy({ email: dto.email });
    const valid = await argon2.verify(user?.passwordHash ?? (await this.dummyHash), dto.password);
    if (!user || !valid) fail(401, MESSAGES.invalidCredentials);

    const rememberMe = dto.rememberMe ?? false;
    const expiresInSeconds = rememberMe
      ? this.config.REMEMBER_ME_DAYS * 86_400
      : this.config.SESSION_TTL_HOURS * 3600;
    const token = await this.sessions.open(user, expiresInSeconds);
    return { token, expiresInSeconds, rememberMe, payload: await this.payloadFor(user) };
  }

  /** The payload of a session the gateway has already verified (signature, expiry, revocation). */
  async verify(userId: string): Promise<AccessTokenPayload> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user) fail(401, MESSAGES.tokenVerificationFailed);
    return this.payloadFor(user);
  }

  /** Revokes one session for the rest of its lifetime. */
  async logout(jti: string, userId: string): Promise<{ message: string }> {
    await this.sessions.revoke(jti, userId);
    return { message: 'Logged out' };
  }

  async getMe(userId: string): Promise<WireUser> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user) fail(401, MESSAGES.tokenVerificationFailed);
    return this.wireUser(user, await this.entitlement(userId));
  }

  async updateMe(userId: string, dto: UpdateMeDto): Promise<WireUser> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user) fail(401, MESSAGES.tokenVerificationFailed);
    if (dto.name !== undefined) user.name = dto.name;
    if (dto.defaultZipcode !== undefined) user.defaultZipcode = dto.defaultZipcode || null;
    if (dto.contactMeForUserFeedback !== undefined)
      user.contactMeForUserFeedback = dto.contactMeForUserFeedback;
    if (dto.restaurantTypesToInclude)
      user.restaurantTypesToInclude = [...new Set(dto.restaurantTypesToInclude)];
    if (dto.restaurantTypesToExclude)
      user.restaurantTypesToExclude = [...new Set(dto.restaurantTypesToExclude)];
    if (dto.limits) user.limits = mergeLimits(user.limits, dto.limits);
    // A type cannot be both included and excluded (SPEC §4 filter rules): the include list wins.
    user.restaurantTypesToExclude = user.restaurantTypesToExclude.filter(
      (type) => !user.restaurantTypesToInclude.includes(type),
    );
    await this.users.save(user);
    // The name is in the verify-token answer that gateways cache.
    await announceAccountChange(this.redis, this.config.REDIS_PREFIX, userId);
    return this.wireUser(user, await this.entitlement(userId));
  }

  /** The saved limits of those of these ids that are accounts and set any. */
  async savedLimits(userIds: string[]): Promise<{ limits: Record<string, PrivateLimits> }> {
    const ids = userIds.filter((id) => isUUID(id));
    const users =
      ids.length === 0
        ? []
        : await this.users.find({
            where: { id: In(ids), limits: Not(IsNull()) },
            select: { id: true, limits: true },
          });
    return { limits: Object.fromEntries(users.map((u) => [u.id, u.limits!])) };
  }

  private wireUser(user: User, entitlement: Entitlement): WireUser {
    return {
      name: user.name,
      email: user.email,
      defaultZipcode: user.defaultZipcode,
      contactMeForUserFeedback: user.contactMeForUserFeedback,
      restaurantTypesToInclude: user.restaurantTypesToInclude,
      restaurantTypesToExclude: user.restaurantTypesToExclude,
      limits: user.limits ?? NO_LIMITS,
      hasLifetimeAccess: entitlement.hasLifetimeAccess,
      lifetimeAccessPurchasedAt: entitlement.lifetimeAccessPurchasedAt,
    };
  }

  private async payloadFor(user: User): Promise<AccessTokenPayload> {
    const entitlement = await this.entitlement(user.id);
    return {
      isAuthenticated: true,
      isAuthorized: true,
      userId: user.id,
      name: user.name,
      email: user.email,
      canCreateRooms: entitlement.canCreateRooms,
      roles: entitlement.canCreateRooms ? ['user', 'host'] : ['user'],
      subscriptionStatus: entitlement.status,
      isGuest: false,
    };
  }

  /** Billing decides; if billing cannot answer, the user is signed in without hosting rights until it can. */
  private async entitlement(userId: string): Promise<Entitlement> {
    try {
      return await callService(this.services, BILLING.entitlement, { userId });
    } catch (err) {
      this.logger.warn(`Entitlement of ${userId} unavailable: ${(err as { message?: string }).message}`);
      return NO_ENTITLEMENT;
    }
  }
}
