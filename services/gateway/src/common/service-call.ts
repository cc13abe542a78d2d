import { ClientProxy } from '@nestjs/microservices';
import { firstValueFrom } from 'rxjs';

/** Sends a request to the service that owns `pattern` and resolves with its single answer. */
export function callService<T>(client: ClientProxy, pattern: string, data: unknown = {}): Promise<T> {
  return firstValueFrom(client.send<T>(pattern, data));
}
