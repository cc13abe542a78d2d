import { Controller, Get, Inject, NotFoundException, Param, Res } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { DECIDED_BY_TEXT, DECISION_MESSAGES, PLAN_TOKEN_PATTERN, PlanView, ROOMS } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Response } from 'express';
import ical from 'ical-generator';
import { ApiCall } from '../api-docs';
import { GatewayConfig } from '../gateway.config';

/** How long the page of a plan waits for its title before it goes out without one. */
const PREVIEW_WAIT_MS = 1500;

/** A plan's calendar event lasts this long (a meal). */
const PLAN_MINUTES = 90;

const TOKEN_PARAM = ApiParam({
  name: 'token',
  description: 'The plan’s token, from Share the plan.',
  schema: { type: 'string', pattern: PLAN_TOKEN_PATTERN.source },
});

/**
 * A shared plan, public and read-only: anyone with the link sees the place, where and when, and nothing about
 * who voted how. The token is 128 random bits; a malformed one is a 404 like an unknown one.
 */
@ApiTags('plans')
@Controller('plans')
export class PlansController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly config: GatewayConfig,
  ) {}

  @Get(':token')
  @ApiCall('A shared plan: the place, its address, hours where known, directions and the time.', 'PlanView')
  @TOKEN_PARAM
  plan(@Param('token') token: string): Promise<PlanView> {
    return this.find(token);
  }

  /** The plan as one calendar event (RFC 5545), with the place as its location and a link back. */
  @Get(':token/calendar.ics')
  @ApiCall('The plan as a calendar file (one event with the place and a link back).', {
    media: 'text/calendar',
  })
  @TOKEN_PARAM
  async calendar(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const plan = await this.find(token);
    const link = `${this.config.publicOrigin}/plan/${plan.token}`;
    const start = new Date(plan.startsAt);
    const calendar = ical({ prodId: { company: 'ForkVote', product: 'plans', language: 'EN' } });
    calendar.createEvent({
      id: `${plan.token}@forkvote`,
      start,
      end: new Date(start.getTime() + PLAN_MINUTES * 60_000),
      stamp: new Date(plan.decidedAt),
      summary: plan.place.name,
      location: plan.place.address ? `${plan.place.name}, ${plan.place.address}` : plan.place.name,
      description: `${DECIDED_BY_TEXT[plan.decidedBy]} Directions: ${plan.place.directionsUri}\n${link}`,
      url: link,
    });
    res
      .status(200)
      .type('text/calendar; charset=utf-8')
      .set({
        'Content-Disposition': `attachment; filename="forkvote-plan.ics"`,
        'Cache-Control': 'no-cache',
      })
      .send(calendar.toString());
  }

  private find(token: string): Promise<PlanView> {
    if (!PLAN_TOKEN_PATTERN.test(token)) throw new NotFoundException(DECISION_MESSAGES.planNotFound);
    return callService(this.services, ROOMS.plan, { token });
  }
}

/** For a link preview of /plan/{token}: the place's name as the page's title, or null for no such plan. */
export function planPreview(services: ClientProxy) {
  return async (path: string): Promise<{ title: string; description: string } | null> => {
    const token = /^\/plan\/([^/]+)\/?$/.exec(path)?.[1];
    if (!token || !PLAN_TOKEN_PATTERN.test(token)) return null;
    const lookup = callService(services, ROOMS.plan, { token }).then(
      (plan) => ({
        title: `${plan.place.name} · ForkVote plan`,
        description: `The plan: ${plan.place.name}, ${plan.place.address}.`,
      }),
      () => null,
    );
    // A preview is a nicety: when rooms is slow the page goes out as it is, and the app loads the plan.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), PREVIEW_WAIT_MS)));
    return Promise.race([lookup, late]).finally(() => clearTimeout(timer));
  };
}
