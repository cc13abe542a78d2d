import {
  ArgumentMetadata,
  ArgumentsHost,
  Catch,
  HttpException,
  Logger,
  RpcExceptionFilter,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { firstMessage, isRpcErrorBody, RpcErrorBody, rpcError } from '@forkvote/contracts';
import { Observable, throwError } from 'rxjs';

const PAYLOAD_AS_SEEN_BY_PIPES = 'body';

/** One message per bad field (its first), nested DTOs included, so a caller can show the SPEC's text. */
export function validationMessages(errors: ValidationError[]): string[] {
  return errors.flatMap((error) =>
    error.constraints ? [firstMessage(error.constraints)] : validationMessages(error.children ?? []),
  );
}

/**
 * Validates every message handler's `@Payload()` against its declared command class (libs/contracts),
 * as the gateway's pipe does for HTTP bodies: a service never trusts its caller, and no handler validates
 * by hand. Only the payload: the transport context is no DTO. Unknown fields are dropped rather than
 * refused, so a newer caller during a rolling deploy does not break an older service.
 */
export class RpcValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      exceptionFactory: (errors) =>
        new RpcException(rpcError(400, [...new Set(validationMessages(errors))].join(', '))),
    });
  }

  protected override toValidate(metadata: ArgumentMetadata): boolean {
    // Nest hands pipes an RPC parameter's type through the HTTP names: the payload (RpcParamtype.PAYLOAD,
    // 3, the number of RouteParamtypes.BODY) arrives as 'body', the context (4) as 'query'.
    return metadata.type === PAYLOAD_AS_SEEN_BY_PIPES && super.toValidate(metadata);
  }

  /*
   * A payload is what JSON.parse made of its envelope (the transport's server): plain objects, arrays
   * without gaps, strings, numbers, booleans and null. The two walks Nest's pipe makes for what HTTP
   * bodies can be besides (a sparse array from a urlencoded `tags[9]`, a Buffer from a multipart upload or
   * a socket.io attachment) find nothing in one, and cost about a tenth of a ballot's validation in rooms.
   * The walk that deletes
   * `__proto__`, `constructor` and `prototype` keys stays: JSON.parse makes those own keys, and
   * class-transformer would copy them onto the instance.
   */
  protected override closeArrayGaps(): void {}

  protected override findNestedBinaryValues(): ValidationError[] {
    return [];
  }
}

/**
 * The one place a service's errors become the `{ statusCode, message }` body its caller receives: refusals
 * keep their status and message, HTTP exceptions theirs, a dependency out of reach is a 503, and anything
 * else is logged here and answered as a bare 500 (no stack or SQL crosses the transport).
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, _host: ArgumentsHost): Observable<RpcErrorBody> {
    return throwError(() => this.toBody(exception));
  }

  toBody(exception: unknown): RpcErrorBody {
    if (exception instanceof RpcException) {
      const error = exception.getError();
      if (isRpcErrorBody(error)) return error;
      if (typeof error === 'string') return rpcError(400, error);
    }
    if (isRpcErrorBody(exception)) return exception;
    if (exception instanceof HttpException) {
      const response = exception.getResponse();
      const message =
        typeof response === 'string'
          ? response
          : ([] as string[])
              .concat((response as { message?: string | string[] }).message ?? exception.message)
              .join(', ');
      return rpcError(exception.getStatus(), message);
    }
    if (isConnectionFailure(exception)) {
      this.logger.warn(`Dependency unreachable: ${(exception as Error).message}`);
      return rpcError(503, `Unavailable: ${dependencyOf(exception)}. Please try again in a moment.`);
    }
    this.logger.error(`Unhandled error: ${(exception as Error)?.stack ?? String(exception)}`);
    return rpcError(500, 'Internal server error');
  }
}

/** Redis or PostgreSQL out of reach: a refused or reset socket, or a client that gave up reconnecting. */
export function isConnectionFailure(exception: unknown): boolean {
  const err = exception as { name?: string; code?: string; message?: string } | null;
  if (!err || typeof err !== 'object') return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      'ENOTFOUND',
      '57P01',
      '57P03',
      '08006',
      '08001',
    ].includes(err.code ?? '') ||
    /Connection is closed|Stream isn't writeable|enableOfflineQueue|Connection terminated/.test(
      err.message ?? '',
    )
  );
}

function dependencyOf(exception: unknown): string {
  const err = exception as { name?: string; code?: string; message?: string };
  return /^(57P|08)/.test(err.code ?? '') || /terminated/.test(err.message ?? '') ? 'PostgreSQL' : 'Redis';
}
