import { Controller, Get, Inject, NotFoundException, Req } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { AUTH, OutboxMessage } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Request } from 'express';
import { isIP } from 'node:net';
import { GatewayConfig } from '../gateway.config';

/** 127.0.0.0/8, ::1, and IPv4 loopback written as IPv6. */
function isLoopback(address: string | undefined): boolean {
  if (!address || !isIP(address)) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

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
