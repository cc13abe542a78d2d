import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { PLANS, Plan } from './plans';
import { LimitsFieldsDto } from './limits';
import type { PrivateLimits } from './limits-rules';
import { MESSAGES } from './messages';
import { PLACE_TYPES } from './place-types';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH, ZIPCODE_PATTERN } from './rules';
import { NormalizeEmail, Optional, Text, TEXT_COLUMNS, Trim } from './validation';

const EMAIL_MAX = 254;
const PASSWORD_MAX = 200;
const NAME_MAX = TEXT_COLUMNS.personName;

export class RegisterDto {
  @NormalizeEmail()
  @IsString({ message: MESSAGES.invalidEmail })
  @Text(EMAIL_MAX, { message: MESSAGES.invalidEmail })
  @Matches(EMAIL_PATTERN, { message: MESSAGES.invalidEmail })
  email: string;

  @IsString({ message: MESSAGES.passwordTooShort })
  @MinLength(MIN_PASSWORD_LENGTH, { message: MESSAGES.passwordTooShort })
  @Text(PASSWORD_MAX, { message: `Password must be at most ${PASSWORD_MAX} characters long` })
  password: string;

  @Trim()
  @IsString({ message: MESSAGES.fullNameRequired })
  @IsNotEmpty({ message: MESSAGES.fullNameRequired })
  @Text(NAME_MAX, { message: `Name must be at most ${NAME_MAX} characters long` })
  name: string;

  @IsIn(PLANS, { message: MESSAGES.invalidPlan })
  plan: Plan;

  @Equals(true, { message: MESSAGES.acceptTerms })
  acceptTermsOfService: boolean;

  @Optional()
  @IsBoolean()
  contactMeForUserFeedback?: boolean;

  @IsString({ message: MESSAGES.recaptchaFailed })
  @Text(4000, { message: MESSAGES.recaptchaFailed })
  recaptchaToken: string;
}

export class LoginDto {
  @NormalizeEmail()
  @IsString({ message: MESSAGES.invalidEmail })
  @Text(EMAIL_MAX, { message: MESSAGES.invalidEmail })
  @Matches(EMAIL_PATTERN, { message: MESSAGES.invalidEmail })
  email: string;

  @IsString({ message: MESSAGES.loginFailed })
  @IsNotEmpty({ message: MESSAGES.loginFailed })
  @Text(PASSWORD_MAX, { message: MESSAGES.loginFailed })
  password: string;

  @Optional()
  @IsBoolean()
  rememberMe?: boolean;
}

export class RequestPasswordResetDto {
  @NormalizeEmail()
  @IsString({ message: MESSAGES.invalidEmail })
  @Text(EMAIL_MAX, { message: MESSAGES.invalidEmail })
  @Matches(EMAIL_PATTERN, { message: MESSAGES.invalidEmail })
  email: string;
}

export class ResetPasswordWithTokenDto {
  @IsString({ message: MESSAGES.passwordTooShort })
  @MinLength(MIN_PASSWORD_LENGTH, { message: MESSAGES.passwordTooShort })
  @Text(PASSWORD_MAX, { message: `Password must be at most ${PASSWORD_MAX} characters long` })
  password: string;

  @IsString({ message: MESSAGES.invalidToken })
  @IsNotEmpty({ message: MESSAGES.invalidToken })
  @Text(200, { message: MESSAGES.invalidToken })
  token: string;
}

/** PATCH /api/v1/me: every field optional; those present are validated. */
export class UpdateMeDto {
  @Optional()
  @Trim()
  @IsString({ message: MESSAGES.nameRequired })
  @IsNotEmpty({ message: MESSAGES.nameRequired })
  @Text(NAME_MAX, { message: `Name must be at most ${NAME_MAX} characters long` })
  name?: string;

  /** Empty string or null clears it. */
  @IsOptional() // null is a value here: it clears the zip code
  @Trim()
  @ValidateIf((_, value) => value !== '' && value !== null)
  @IsString({ message: MESSAGES.invalidZipcode })
  @Matches(ZIPCODE_PATTERN, { message: MESSAGES.invalidZipcode })
  defaultZipcode?: string | null;

  @Optional()
  @IsArray()
  @ArrayMaxSize(PLACE_TYPES.length)
  @IsIn(PLACE_TYPES, { each: true, message: 'Unknown restaurant type' })
  restaurantTypesToInclude?: string[];

  @Optional()
  @IsArray()
  @ArrayMaxSize(PLACE_TYPES.length)
  @IsIn(PLACE_TYPES, { each: true, message: 'Unknown restaurant type' })
  restaurantTypesToExclude?: string[];

  @Optional()
  @IsBoolean()
  contactMeForUserFeedback?: boolean;

  /** Private limits (docs/groups.md); each field null clears that limit. */
  @Optional()
  @ValidateNested()
  @Type(() => LimitsFieldsDto)
  limits?: LimitsFieldsDto;
}

export class FeedbackDto {
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'Please enter your name' })
  @Text(NAME_MAX)
  name: string;

  @NormalizeEmail()
  @IsString({ message: MESSAGES.invalidEmail })
  @Text(EMAIL_MAX, { message: MESSAGES.invalidEmail })
  @Matches(EMAIL_PATTERN, { message: MESSAGES.invalidEmail })
  email: string;

  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'Please enter a subject' })
  @Text(TEXT_COLUMNS.feedbackSubject)
  subject: string;

  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'Please enter a message' })
  @Text(5000, { multiline: true })
  message: string;
}

/** The access token payload the web app reads (SPEC §3), from verify-token and login. */
export interface AccessTokenPayload {
  isAuthenticated: boolean;
  isAuthorized: boolean;
  userId: string;
  name: string;
  email: string;
  /** Creator-capable: may create rooms (entitlement from billing). */
  canCreateRooms: boolean;
  /** 'host' when the user may host rooms; 'user' always for registered users. */
  roles: ('user' | 'host')[];
  subscriptionStatus: 'lifetime' | 'active' | 'trialing' | 'canceled' | 'none';
  isGuest: false;
}

/** GET /api/v1/me */
export interface WireUser {
  name: string;
  email: string;
  defaultZipcode: string | null;
  contactMeForUserFeedback: boolean;
  restaurantTypesToInclude: string[];
  restaurantTypesToExclude: string[];
  /** Private limits, applied in every room the user joins unless they set others there. */
  limits: PrivateLimits;
  hasLifetimeAccess: boolean;
  lifetimeAccessPurchasedAt: string | null;
}

/** The claims of the session JWT; everything else is looked up fresh on verify. */
export interface SessionClaims {
  sub: string;
  email: string;
  jti: string;
  iat: number;
  exp: number;
}

export interface LoginAnswer {
  token: string;
  /** Seconds until the token expires; the cookie is persistent only with rememberMe. */
  expiresInSeconds: number;
  rememberMe: boolean;
  payload: AccessTokenPayload;
}

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/**
 * Redis keys caching the state of a session (a login token), written by auth and read by every gateway
 * replica on each authenticated request. The record itself is auth's `sessions` table in PostgreSQL: a
 * missing key (evicted, expired, or a Redis that restarted empty) is asked of auth, never taken as live.
 */
export const sessionKeys = {
  /** 'live' or 'revoked'. */
  state: (prefix: string, jti: string) => `${prefix}:session:${jti}`,
};

/** How long a gateway trusts a cached 'live' answer before asking auth again. */
export const LIVE_SESSION_CACHE_SECONDS = 300;

/**
 * A counter per account, raised by auth and billing after each committed change that a verify-token answer
 * shows (the name or email, the plan). A gateway keeps an account's answer with the counter it read before
 * asking, and uses it while the counter is unchanged: a plan change shows on the next page load.
 */
export const accountKeys = {
  version: (prefix: string, userId: string) => `${prefix}:account-version:{${userId}}`,
};

/** The longest a gateway keeps an account's verify-token answer, whatever the counter says. */
export const ACCOUNT_ANSWER_CACHE_SECONDS = 30;
