import { Controller, Get, Inject, NotFoundException, Req } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { AUTH, OutboxMessage } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Request } from 'express';
import { GatewayConfig } from '../gateway.config';

// Express's own parser of address lists: 'loopback' is 127.0.0.0/8 and ::1, IPv4-mapped IPv6 included.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const proxyAddr = require('proxy-addr') as {
  compile(list: string): (address: string, hop: number) => boolean;
};
const loopback = proxyAddr.compile('loopback');
const isLoopback = (address: string | undefined) => address !== undefined && loopback(address, 0);

/**
 * Development helpers. The module leaves this controller out in production; outside it, the outbox is
 * served only when SERVE_DEV_OUTBOX=true, and only to a caller on this machine: the connection comes from
 * loopback and so does the client address that any trusted proxy reports. Anyone else gets the 404 of a
 * route that does not exist.
 */
@ApiExcludeController()
@Controller('dev')
export class DevController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly config: GatewayConfig,
  ) {}

  /** Mail the development outbox holds (password reset links), newest first. */
  @Get('outbox')
  outbox(@Req() req: Request): Promise<OutboxMessage[]> {
    if (!this.config.devOutbox || !isLoopback(req.socket.remoteAddress) || !isLoopback(req.ip)) {
      throw new NotFoundException(`Cannot GET ${req.path}`);
    }
    return callService(this.services, AUTH.outbox, {});
  }
}
