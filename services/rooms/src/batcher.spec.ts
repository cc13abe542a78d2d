import { metricsRegistry } from '@forkvote/platform';
import { Batcher } from './batcher';

describe('Batcher', () => {
  it('runs calls made in the same turn as one batch, answering each with its own output', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>('test', async (inputs) => {
      batches.push(inputs);
      return inputs.map((n) => n * 10);
    });
    const answers = await Promise.all([1, 2, 3].map((n) => batcher.call(n)));
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
    // A call alone is a batch of one.
    expect(await batcher.call(4)).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('splits batches above the maximum size', async () => {
    const sizes: number[] = [];
    const batcher = new Batcher<number, number>(
      'test',
      async (inputs) => {
        sizes.push(inputs.length);
        return inputs;
      },
      { maxSize: 2, maxRunning: 3 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.call(n)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('runs each call alone when the batch fails, so one bad call fails only itself', async () => {
    const batcher = new Batcher<number, number>('test', async (inputs) => {
      if (inputs.length > 1) throw new Error('deadlock detected');
      if (inputs[0] === 2) throw new Error('bad input');
      return inputs;
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.call(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('bad input'));
  });

  it('holds calls made while a batch runs, and runs them together once it ends', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const batcher = new Batcher<number, number>('test', async (inputs) => {
      batches.push(inputs);
      if (inputs[0] === 1) await first;
      return inputs;
    });
    const one = batcher.call(1);
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch is running: these three wait, in separate turns, for it to end.
    const later: Promise<number>[] = [];
    for (const n of [2, 3, 4]) {
      later.push(batcher.call(n));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([one, ...later])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('runs up to maxRunning batches at once', async () => {
    let running = 0;
    let most = 0;
    const batcher = new Batcher<number, number>(
      'test',
      async (inputs) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return inputs;
      },
      { maxSize: 1, maxRunning: 2 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.call(n)))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('starts batches at least minIntervalMs apart under load, and a call after a quiet spell at once', async () => {
    jest.useFakeTimers();
    try {
      const started: [number, number[]][] = [];
      const t0 = performance.now();
      const batcher = new Batcher<number, number>(
        'test',
        async (inputs) => {
          started.push([performance.now() - t0, inputs]);
          return inputs;
        },
        { minIntervalMs: 50 },
      );
      const answers = [batcher.call(1)];
      // Three more calls, 10 ms apart, while the first batch's interval runs: they gather into one batch.
      for (const n of [2, 3, 4]) {
        await jest.advanceTimersByTimeAsync(10);
        answers.push(batcher.call(n));
      }
      await jest.advanceTimersByTimeAsync(50);
      expect(await Promise.all(answers)).toEqual([1, 2, 3, 4]);
      await jest.advanceTimersByTimeAsync(100);
      const quiet = batcher.call(5);
      await jest.advanceTimersByTimeAsync(0);
      expect(await quiet).toBe(5);
      expect(started).toEqual([
        [0, [1]],
        [50, [2, 3, 4]],
        [180, [5]],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts the size of each batch under its statement in the metrics', async () => {
    const batcher = new Batcher<number, number>('spec-sizes', async (inputs) => inputs);
    await Promise.all([1, 2, 3].map((n) => batcher.call(n)));
    await batcher.call(4);
    // As Prometheus reads it.
    const lines = (await metricsRegistry.metrics())
      .split('\n')
      .filter((line) => line.startsWith('forkvote_rooms_batch_size') && line.includes('"spec-sizes"'));
    const of = (series: string) =>
      Number(
        lines
          .find((line) => line.includes(series))
          ?.split(' ')
          .pop(),
      );
    expect(of('_count{')).toBe(2);
    expect(of('_sum{')).toBe(4);
    expect(of('le="1"')).toBe(1);
    expect(of('le="2"')).toBe(1);
    expect(of('le="4"')).toBe(2);
  });
});
