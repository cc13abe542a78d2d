import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiCall } from '../api-docs';
import { ClientProxy } from '@nestjs/microservices';
import { ApiTags } from '@nestjs/swagger';
import { AUTH, FeedbackDto } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import { RateLimit, RateLimitGuard } from '../common/rate-limit';

@ApiTags('feedback')
@Controller('feedback')
export class FeedbackController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  @Post()
  @ApiCall('Sends feedback to the team.', 'Message')
  @HttpCode(200)
  @RateLimit('feedback')
  @UseGuards(RateLimitGuard)
  send(@Body() body: FeedbackDto): Promise<{ message: string }> {
    return callService(this.services, AUTH.feedback, { body });
  }
}
