// Types of the xk6-sse extension's module (k6/x/sse), which k6's own type definitions do not cover.
declare module 'k6/x/sse' {
  interface SseEvent {
    id: string;
    name: string;
    data: string;
  }
  interface SseClient {
    on(event: 'event', handler: (event: SseEvent) => void): void;
    on(event: 'open', handler: () => void): void;
    on(event: 'error', handler: (error: { error(): string }) => void): void;
    close(): void;
  }
  const sse: {
    open(
      url: string,
      params: { headers?: Record<string, string>; method?: string; body?: string },
      callback: (client: SseClient) => void,
    ): { status: number } | undefined;
  };
  export default sse;
}
