import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiTags } from '@nestjs/swagger';
import { AUTH, FeedbackDto } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';

@ApiTags('feedback')
@Controller('feedback')
export class FeedbackController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  @Post()
  @HttpCode(200)
  send(@Body() body: FeedbackDto): Promise<{ message: string }> {
    return callService(this.services, AUTH.feedback, { body });
  }
}
