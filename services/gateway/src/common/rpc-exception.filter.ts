import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { isRpcErrorBody, MESSAGES } from '@forkvote/contracts';
import { isConnectionFailure } from '@forkvote/platform';
import type { Response } from 'express';

/**
 * The gateway's one exception filter. Errors from services arrive as `{ statusCode, message }` bodies and
 * keep their status; HTTP exceptions keep theirs; anything else is logged and answered as a bare 500, so a
 * stack trace or SQL never reaches a browser.
 */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    const { status, body } = this.toHttp(exception);
    response.status(status).json(body);
  }

  private toHttp(exception: unknown): { status: number; body: Record<string, unknown> } {
    if (isRpcErrorBody(exception)) {
      const status = exception.statusCode >= 400 && exception.statusCode < 600 ? exception.statusCode : 500;
      if (status >= 500 && status !== 503) this.logger.error(`Service error: ${exception.message}`);
      return { status, body: { statusCode: status, message: exception.message, error: exception.message } };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const raw = typeof response === 'string' ? response : (response as { message?: unknown }).message;
      const message = Array.isArray(raw) ? raw.join(', ') : String(raw ?? exception.message);
      return { status, body: { statusCode: status, message, error: message } };
    }
    if (isConnectionFailure(exception)) {
      this.logger.warn(`Dependency unreachable: ${(exception as Error).message}`);
      const status = HttpStatus.SERVICE_UNAVAILABLE;
      return { status, body: { statusCode: status, message: MESSAGES.serviceUnavailable } };
    }
    this.logger.error(`Unhandled error: ${(exception as Error)?.stack ?? String(exception)}`);
    const status = HttpStatus.INTERNAL_SERVER_ERROR;
    return { status, body: { statusCode: status, message: 'An unexpected error occurred' } };
  }
}
