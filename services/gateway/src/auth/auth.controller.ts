import { Body, Controller, HttpCode, Inject, Ip, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCall, SESSION } from '../api-docs';
import { ClientProxy } from '@nestjs/microservices';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import {
  AccessTokenPayload,
  ANONYMOUS_PAYLOAD,
  AUTH,
  CheckoutAnswer,
  isRpcErrorBody,
  LoginAnswer,
  LoginDto,
  RegisterDto,
  RequestPasswordResetDto,
  ResetPasswordWithTokenDto,
  SESSION_OPTIONAL_HEADER,
  SessionClaims,
  SubscribeDto,
} from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Request, Response } from 'express';
import { RateLimit, RateLimitGuard } from '../common/rate-limit';
import { GatewayConfig } from '../gateway.config';
import { AccountAnswers } from './account-answers';
import { LoginThrottle } from './login-throttle';
import {
  clearSessionCookie,
  keepCheckoutSecret,
  Session,
  SessionGuard,
  setSessionCookie,
  VerifyTokenGuard,
} from './session';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly config: GatewayConfig,
    private readonly throttle: LoginThrottle,
    private readonly accounts: AccountAnswers,
  ) {}

  /** Called by the web app on load; answers the current access token payload or 401. */
  @Post('verify-token')
  @ApiCall('The signed-in user, from the session cookie (or bearer token).', 'AccessTokenPayload')
  @SESSION()
  @ApiHeader({
    name: SESSION_OPTIONAL_HEADER,
    required: false,
    description: '`1`: without a live session, answer 200 with isAuthenticated false instead of 401.',
  })
  @HttpCode(200)
  @UseGuards(VerifyTokenGuard)
  verifyToken(@Session() session: SessionClaims | null): Promise<AccessTokenPayload> {
    if (!session) return Promise.resolve(ANONYMOUS_PAYLOAD);
    return this.accounts.get(session.sub, () =>
      callService(this.services, AUTH.verify, { userId: session.sub }),
    );
  }

  @Post('login')
  @ApiCall('Signs in; sets the session cookie.', 'AccessTokenPayload')
  @HttpCode(200)
  async login(
    @Body() body: LoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AccessTokenPayload> {
    await this.throttle.admit(body.email, req, res);
    let answer: LoginAnswer;
    try {
      answer = await callService(this.services, AUTH.login, { body });
    } catch (err) {
      // A wrong password keeps its count; anything else (a service away) gives the attempt back.
      if (!isRpcErrorBody(err) || err.statusCode !== 401) await this.throttle.notCounted(body.email, req);
      throw err;
    }
    await this.throttle.succeeded(body.email, req, res);
    setSessionCookie(res, this.config, answer.token, answer.rememberMe ? answer.expiresInSeconds : undefined);
    return answer.payload;
  }

  /** Creates the account and answers the checkout address the browser goes to next. */
  @Post('register')
  @ApiCall(
    'Creates the account and a checkout for the chosen plan; the browser goes to `stripeCheckoutUrl`.',
    'CheckoutAnswer',
  )
  @HttpCode(200)
  @RateLimit('register')
  @UseGuards(RateLimitGuard)
  async register(
    @Body() body: RegisterDto,
    @Ip() ip: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CheckoutAnswer> {
    const answer = await callService(this.services, AUTH.register, { body, ip });
    return keepCheckoutSecret(res, this.config, answer);
  }

  @Post('subscribe')
  @ApiCall('A checkout for a new plan of the signed-in user.', 'CheckoutAnswer')
  @SESSION()
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async subscribe(
    @Body() body: SubscribeDto,
    @Session() session: SessionClaims,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CheckoutAnswer> {
    const answer = await callService(this.services, AUTH.subscribe, {
      userId: session.sub,
      body,
    });
    return keepCheckoutSecret(res, this.config, answer);
  }

  /** Revokes the token server-side, so a copy of the cookie stops working too. */
  @Post('logout')
  @ApiCall('Ends the session everywhere it is recorded and clears the cookie.', 'Message')
  @SESSION()
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async logout(@Session() session: SessionClaims, @Res({ passthrough: true }) res: Response) {
    const answer = await callService(this.services, AUTH.logout, { jti: session.jti, userId: session.sub });
    clearSessionCookie(res, this.config);
    return answer;
  }

  @Post('reset-password')
  @ApiCall(
    'Mails a password-reset link, if the address has an account (the answer is the same either way).',
    'Message',
  )
  @HttpCode(200)
  @RateLimit('passwordReset')
  @UseGuards(RateLimitGuard)
  requestPasswordReset(@Body() body: RequestPasswordResetDto) {
    return callService(this.services, AUTH.requestPasswordReset, { body });
  }

  @Post('reset-password-token')
  @ApiCall('Sets a new password with the token from the reset link.', 'Message')
  @HttpCode(200)
  @RateLimit('passwordReset')
  @UseGuards(RateLimitGuard)
  resetPassword(@Body() body: ResetPasswordWithTokenDto) {
    return callService(this.services, AUTH.resetPassword, { body });
  }
}
