import { metricsRegistry } from '@forkvote/platform';
import { Histogram } from 'prom-client';

/**
 * How many calls each batch carried, by statement: what group commit is doing. Under load a ballot or a join
 * should share its statement with others; batches of one at a high rate mean the calls arrive spread out.
 */
const batchSize = new Histogram({
  name: 'forkvote_rooms_batch_size',
  help: 'Calls carried by each batched statement, by statement',
  labelNames: ['statement'] as const,
  buckets: [1, 2, 4, 8, 16, 32, 64],
  registers: [metricsRegistry],
});

interface Pending<In, Out> {
  input: In;
  resolve: (output: Out) => void;
  reject: (err: unknown) => void;
}

export interface BatcherOptions {
  /** The most calls in one batch. */
  maxSize?: number;
  /** The most batches running at once; calls made meanwhile wait and go together in the next one. */
  maxRunning?: number;
  /**
   * The least time (ms) from one batch's start to the next one's (5 unless given). A call after a quiet
   * spell starts at once; under load, calls gather for up to this long and share one statement
   * (docs/adr/0015 says what 5 ms gave).
   */
  minIntervalMs?: number;
}

/**
 * Runs calls as batches: one statement, one round trip and one commit in PostgreSQL for all of them instead
 * of one each. Calls made in the same turn of the event loop go together; and while `maxRunning` batches
 * are running, new calls wait for one of them to end and then go as one batch (group commit). So an idle
 * process runs each call at once as a batch of one, and a busy one runs fewer, larger batches: the more
 * calls arrive, the less each costs, instead of every call paying a transaction of its own.
 *
 * Group commit alone leaves batches of one or two at a steady few hundred calls a second, since a batch
 * ends in about a millisecond; `minIntervalMs` spaces batches out, so calls at that rate share a statement
 * too (a call waits at most that long, and only when the previous batch started less than that ago).
 */
export class Batcher<In, Out> {
  private queue: Pending<In, Out>[] = [];
  private running = 0;
  private scheduled = false;
  private readonly maxSize: number;
  private readonly maxRunning: number;
  private readonly minIntervalMs: number;
  /** When the last batch started (performance.now()). */
  private lastStart = -Infinity;
  private readonly sizes: { observe(size: number): void };

  constructor(
    /** Names the batches in `forkvote_rooms_batch_size` (`vote`, `join`). */
    statement: string,
    /** Answers one output per input, in the inputs' order. */
    private readonly runBatch: (inputs: In[]) => Promise<Out[]>,
    options: BatcherOptions = {},
  ) {
    this.maxSize = options.maxSize ?? 64;
    this.maxRunning = options.maxRunning ?? 1;
    this.minIntervalMs = options.minIntervalMs ?? 5;
    this.sizes = batchSize.labels(statement);
  }

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Starts batches at the end of this turn, so the calls made in it go together; or, if the last batch
   * started less than `minIntervalMs` ago, once that much time has passed since.
   */
  private schedule(): void {
    if (this.scheduled || this.running >= this.maxRunning) return;
    this.scheduled = true;
    const wait = this.lastStart + this.minIntervalMs - performance.now();
    if (wait > 0) setTimeout(() => this.start(), Math.ceil(wait));
    else setImmediate(() => this.start());
  }

  private start(): void {
    this.scheduled = false;
    this.lastStart = performance.now();
    while (this.queue.length > 0 && this.running < this.maxRunning) {
      this.running += 1;
      const batch = this.queue.splice(0, this.maxSize);
      this.sizes.observe(batch.length);
      void this.run(batch).finally(() => {
        this.running -= 1;
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  private async run(batch: Pending<In, Out>[]): Promise<void> {
    let outputs: Out[];
    try {
      outputs = await this.runBatch(batch.map((call) => call.input));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // The whole statement failed (two batches deadlocked, say): no call may fail for another's sake,
      // so each runs alone and answers for itself.
      for (const call of batch) await this.run([call]);
      return;
    }
    batch.forEach((call, index) => call.resolve(outputs[index]));
  }
}
