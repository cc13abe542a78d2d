import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiCommand, apiOnce, isUnanswered } from './http';

const answer = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('apiCommand', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('sends again with the same Idempotency-Key while the server answers 503 or cannot be reached', async () => {
    vi.useFakeTimers();
    const keys: string[] = [];
    const replies = [
      () => answer(503, { message: 'Unavailable' }),
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => answer(200, { voted: true }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_path: string, init: RequestInit) => {
        keys.push((init.headers as Record<string, string>)['Idempotency-Key']);
        return replies[keys.length - 1]();
      }),
    );
    const result = apiCommand('/api/v1/waiting-room/vote', { method: 'PATCH', body: '{}' });
    await vi.runAllTimersAsync();
    await expect(result).resolves.toEqual({ voted: true });
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('does not repeat a refusal', async () => {
    const fetch = vi.fn(async () => answer(409, { message: 'You have already voted on this batch.' }));
    vi.stubGlobal('fetch', fetch);
    await expect(apiCommand('/api/v1/waiting-room/vote', { method: 'PATCH' })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('apiOnce', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('gives up an answer that does not come in time, as unanswered (the ballot is kept and sent again)', async () => {
    // A server that takes the request and never answers: only the abort ends it.
    const fetch = vi.fn(
      (_path: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        ),
    );
    vi.stubGlobal('fetch', fetch);
    const started = Date.now();
    const failure = await apiOnce('/api/v1/waiting-room/vote', { method: 'PATCH' }, 'key-1', 50).catch(
      (err: unknown) => err,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(isUnanswered(failure)).toBe(true);
    expect((fetch.mock.calls[0][1].headers as Record<string, string>)['Idempotency-Key']).toBe('key-1');
  });
});
