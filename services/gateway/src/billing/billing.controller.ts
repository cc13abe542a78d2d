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
import { ClientProxy } from '@nestjs/microservices';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { BILLING, SessionClaims, StripeInformation } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Request, Response } from 'express';
import { Session, SessionGuard } from '../auth/session';
import { checkoutPage, LocalCheckoutView, portalPage } from './local-pages';

@ApiTags('billing')
@Controller('billing')
export class BillingController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  /** Stripe's webhook: the signature is checked by billing over the exact bytes Stripe sent. */
  @Post('webhook')
  @HttpCode(200)
  async webhook(@Req() req: Request & { rawBody?: Buffer }, @Headers('stripe-signature') signature?: string) {
    if (!req.rawBody || !signature) throw new BadRequestException('Missing Stripe signature or body');
    const result = await callService<string>(this.services, BILLING.webhook, {
      rawBody: req.rawBody.toString('utf8'),
      signature,
    });
    return { received: true, result };
  }

  @Get('checkout/:id')
  @ApiExcludeEndpoint()
  async checkout(@Param('id') id: string, @Res() res: Response) {
    const view = await callService<LocalCheckoutView>(this.services, BILLING.localCheckout, { id });
    res.type('html').setHeader('Cache-Control', 'no-store').send(checkoutPage(view));
  }

  @Post('checkout/:id/complete')
  @ApiExcludeEndpoint()
  async complete(@Param('id') id: string, @Res() res: Response) {
    const { redirect } = await callService<{ redirect: string }>(
      this.services,
      BILLING.completeLocalCheckout,
      { id },
    );
    res.redirect(303, redirect);
  }

  @Post('checkout/:id/cancel')
  @ApiExcludeEndpoint()
  async cancel(@Param('id') id: string, @Res() res: Response) {
    const { redirect } = await callService<{ redirect: string }>(this.services, BILLING.cancelLocalCheckout, {
      id,
    });
    res.redirect(303, redirect);
  }

  @Get('portal')
  @ApiExcludeEndpoint()
  @UseGuards(SessionGuard)
  async portal(@Session() session: SessionClaims, @Res() res: Response) {
    const info = await callService<StripeInformation>(this.services, BILLING.stripeInformation, {
      userId: session.sub,
    });
    res.type('html').setHeader('Cache-Control', 'no-store').send(portalPage(info.stripeSubscriptions[0]));
  }

  @Post('portal/cancel')
  @ApiExcludeEndpoint()
  @UseGuards(SessionGuard)
  async cancelSubscription(@Session() session: SessionClaims, @Res() res: Response) {
    const { redirect } = await callService<{ redirect: string }>(
      this.services,
      BILLING.cancelLocalSubscription,
      {
        userId: session.sub,
      },
    );
    res.redirect(303, redirect);
  }
}
