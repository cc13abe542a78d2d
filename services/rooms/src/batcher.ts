interface Pending<In, Out> {
  input: In;
  resolve: (output: Out) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs the calls that arrive in the same turn of the event loop as one batch: one statement, one round
 * trip and one commit in PostgreSQL for all of them instead of one each. A busy rooms process reads its
 * requests off the transport many at a time, so they arrive together; an idle one runs each call as a
 * batch of one.
 */
export class Batcher<In, Out> {
  private queue: Pending<In, Out>[] = [];

  constructor(
    /** Answers one output per input, in the inputs' order. */
    private readonly runBatch: (inputs: In[]) => Promise<Out[]>,
    private readonly maxSize = 64,
  ) {}

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      if (this.queue.push({ input, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    while (this.queue.length > 0) void this.run(this.queue.splice(0, this.maxSize));
  }

  private async run(batch: Pending<In, Out>[]): Promise<void> {
    let outputs: Out[];
    try {
      outputs = await this.runBatch(batch.map((call) => call.input));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // The whole statement failed (two batches deadlocked, say): no call may fail for another's sake,
      // so each runs alone and answers for itself.
      for (const call of batch) void this.run([call]);
      return;
    }
    batch.forEach((call, index) => call.resolve(outputs[index]));
  }
}
