import { RpcException } from '@nestjs/microservices';
import { rpcError } from '@forkvote/contracts';

/** Throws an RpcException carrying status and message; the gateway answers with both. */
export function fail(statusCode: number, message: string, code?: string): never {
  throw new RpcException(rpcError(statusCode, message, code));
}
