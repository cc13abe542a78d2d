import { RpcException } from '@nestjs/microservices';
import { firstMessage, rpcError } from '@forkvote/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/**
 * Validates a payload at the service boundary with the same DTO class the gateway used, so a service
 * never trusts its callers. Throws a 400 RpcException with the first message of each bad field.
 */
export function validated<T extends object>(dto: new () => T, payload: unknown): T {
  const instance = plainToInstance(dto, payload ?? {});
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    const messages = errors.map((e) =>
      firstMessage(e.constraints ?? { invalid: `${e.property} is invalid` }),
    );
    throw new RpcException(rpcError(400, [...new Set(messages)].join(', ')));
  }
  return instance;
}

/** Throws an RpcException carrying status and message; the gateway answers with both. */
export function fail(statusCode: number, message: string, code?: string): never {
  throw new RpcException(rpcError(statusCode, message, code));
}
