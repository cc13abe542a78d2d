/**
 * The error body that crosses the transport. Services throw `RpcException(rpcError(...))`; the gateway's
 * exception filter turns it into an HTTP answer with the same status and message.
 */
export interface RpcErrorBody {
  statusCode: number;
  message: string;
  /** Machine-readable code, stable across message wording changes. */
  code?: string;
}

export function rpcError(statusCode: number, message: string, code?: string): RpcErrorBody {
  return code ? { statusCode, message, code } : { statusCode, message };
}

export function isRpcErrorBody(value: unknown): value is RpcErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RpcErrorBody).statusCode === 'number' &&
    typeof (value as RpcErrorBody).message === 'string'
  );
}

export const ERROR_CODES = {
  serviceTimeout: 'SERVICE_TIMEOUT',
  internal: 'INTERNAL',
} as const;
