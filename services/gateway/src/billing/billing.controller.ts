import {
  BadRequestException,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiCall } from '../api-docs';
import { ClientProxy } from '@nestjs/microservices';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { BILLING, CHECKOUT_COOKIE, LocalCheckoutAccess, SessionClaims } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Request, Response } from 'express';
import { OptionalSessionGuard, Session, SessionGuard } from '../auth/session';
import { checkoutPage, portalPage } from './local-pages';

@ApiTags('billing')
@Controller('billing')
export class BillingController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  /** Stripe's webhook: the signature is checked by billing over the exact bytes Stripe sent. */
  @Post('webhook')
  @ApiCall('Stripe’s webhook (signed by Stripe).', 'Received')
  @HttpCode(200)
  async webhook(@Req() req: Request & { rawBody?: Buffer }, @Headers('stripe-signature') signature?: string) {
    if (!req.rawBody || !signature) throw new BadRequestException('Missing Stripe signature or body');
    const result = await callService(this.services, BILLING.webhook, {
      rawBody: req.rawBody.toString('utf8'),
      signature,
    });
    return { received: true, result };
  }

  /** The local test-mode checkout: for its owner's session or the browser holding its secret cookie. */
  @Get('checkout/:id')
  @ApiExcludeEndpoint()
  @UseGuards(OptionalSessionGuard)
  async checkout(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    const view = await callService(this.services, BILLING.localCheckout, access(id, req));
    res.type('html').setHeader('Cache-Control', 'no-store').send(checkoutPage(view));
  }

  @Post('checkout/:id/complete')
  @ApiExcludeEndpoint()
  @UseGuards(OptionalSessionGuard)
  async complete(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    const { redirect } = await callService(this.services, BILLING.completeLocalCheckout, access(id, req));
    res.redirect(303, redirect);
  }

  @Post('checkout/:id/cancel')
  @ApiExcludeEndpoint()
  @UseGuards(OptionalSessionGuard)
  async cancel(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    const { redirect } = await callService(this.services, BILLING.cancelLocalCheckout, access(id, req));
    res.redirect(303, redirect);
  }

  @Get('portal')
  @ApiExcludeEndpoint()
  @UseGuards(SessionGuard)
  async portal(@Session() session: SessionClaims, @Res() res: Response) {
    const info = await callService(this.services, BILLING.stripeInformation, {
      userId: session.sub,
    });
    res.type('html').setHeader('Cache-Control', 'no-store').send(portalPage(info.stripeSubscriptions[0]));
  }

  @Post('portal/cancel')
  @ApiExcludeEndpoint()
  @UseGuards(SessionGuard)
  async cancelSubscription(@Session() session: SessionClaims, @Res() res: Response) {
    const { redirect } = await callService(this.services, BILLING.cancelLocalSubscription, {
      userId: session.sub,
    });
    res.redirect(303, redirect);
  }
}

function access(id: string, req: Request): LocalCheckoutAccess {
  const cookies = req.cookies as Record<string, string> | undefined;
  return {
    id,
    userId: (req.user as SessionClaims | null | undefined)?.sub,
    secret: cookies?.[CHECKOUT_COOKIE],
  };
}
