import { Injectable } from '@nestjs/common';

/** Set when SIGTERM arrives: readiness turns false so the load balancer stops sending new traffic. */
@Injectable()
export class ShutdownState {
  draining = false;
}
