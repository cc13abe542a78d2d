import { Controller, Get, Inject } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { AUTH, OutboxMessage } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';

/** Development helpers; the module leaves this controller out when NODE_ENV is production. */
@ApiExcludeController()
@Controller('dev')
export class DevController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  /** Mail the development outbox holds (password reset links), newest first. */
  @Get('outbox')
  outbox(): Promise<OutboxMessage[]> {
    return callService(this.services, AUTH.outbox, {});
  }
}
