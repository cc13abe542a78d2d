import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { validationMessages } from '@forkvote/platform';

/**
 * The global pipe, for every call (join and vote included): whitelist, no unknown fields, transformation,
 * one 400 with every message (each field's first).
 */
export class GatewayValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) =>
        new BadRequestException([...new Set(validationMessages(errors))].join(', ')),
    });
  }
}
