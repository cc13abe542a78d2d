import { Controller, Get } from '@nestjs/common';
import { ApiCall } from './api-docs';
import { ApiTags } from '@nestjs/swagger';
import { GatewayConfig } from './gateway.config';

/** What the web app needs to know about this deployment before it renders forms. */
@ApiTags('config')
@Controller('config')
export class PublicConfigController {
  constructor(private readonly config: GatewayConfig) {}

  @Get()
  @ApiCall('What the web app needs to know: the bot-check site key and the environment.', 'PublicConfig')
  get() {
    return {
      /** Empty: the bot check runs in development mode and the app sends the development token. */
      recaptchaSiteKey: this.config.RECAPTCHA_SITE_KEY,
      environment: this.config.NODE_ENV,
    };
  }
}
