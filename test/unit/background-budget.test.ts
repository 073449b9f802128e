import { BackgroundBudget, budgetFromEnv, DEFAULT_BUDGET } from '../../platform/src/bus/budget';
import { LogTally } from '../../platform/src/observability/log-tally';

/** Background work's share of a process: permits, and yielding to requests in flight (no clock involved). */
const settled = () => new Promise((ok) => setImmediate(ok));

/** A piece of background work that runs until released, recording that it started. */
function piece(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((ok) => (finish = ok));
  const run = () => {
    started.push(name);
    return done;
  };
  return { run, finish };
}

describe('the background budget', () => {
  it('runs at most its concurrency of batches at once, the others in turn', async () => {
    const budget = new BackgroundBudget({ concurrency: 2, busyConcurrency: 1, busyShare: 1 });
    const started: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => piece(started, n));
    const runs = [a, b, c].map((p) => budget.run(p.run));
    await settled();
    expect(started).toEqual(['a', 'b']);
    a.finish();
    await settled();
    expect(started).toEqual(['a', 'b', 'c']);
    b.finish();
    c.finish();
    await Promise.all(runs);
    expect(budget.state).toEqual({ held: 0, waiting: 0, inFlight: 0 });
  });

  it('narrows to its busy concurrency while requests are in flight, and widens when they end', async () => {
    const budget = new BackgroundBudget({ concurrency: 3, busyConcurrency: 1, busyShare: 1 });
    const end = budget.foreground();
    const started: string[] = [];
    const pieces = ['a', 'b', 'c'].map((n) => piece(started, n));
    const runs = pieces.map((p) => budget.run(p.run));
    await settled();
    expect(started).toEqual(['a']);
    end();
    end(); // said twice, counted once
    await settled();
    expect(started).toEqual(['a', 'b', 'c']);
    for (const p of pieces) p.finish();
    await Promise.all(runs);
  });

  it('never stops under requests: one batch at a time still runs, and its permit idles after it while they last', async () => {
    // The test's clock: the batch takes 1 s of it, all of it with a request in flight.
    let clock = 0;
    const budget = new BackgroundBudget({ concurrency: 2, busyConcurrency: 1, busyShare: 0.2 }, () => clock);
    const end = budget.foreground();
    const started: string[] = [];
    const [a, b] = ['a', 'b'].map((n) => piece(started, n));
    const first = budget.run(a.run);
    const second = budget.run(b.run);
    await settled();
    expect(started).toEqual(['a']);
    clock += 1000;
    a.finish();
    // The batch's caller has its answer at once; its permit idles (4 s on a real timer), holding b back.
    await first;
    await settled();
    expect(started).toEqual(['a']);
    expect(budget.state).toEqual({ held: 1, waiting: 1, inFlight: 1 });
    end();
    await settled();
    expect(started).toEqual(['a', 'b']);
    b.finish();
    await second;
  });

  it('does not idle after a batch during which no request was in flight', async () => {
    let clock = 0;
    const budget = new BackgroundBudget({ concurrency: 1, busyConcurrency: 1, busyShare: 0.01 }, () => clock);
    const started: string[] = [];
    const [a, b] = ['a', 'b'].map((n) => piece(started, n));
    const first = budget.run(a.run);
    const second = budget.run(b.run);
    await settled();
    clock += 1000;
    a.finish();
    await first;
    await settled();
    expect(started).toEqual(['a', 'b']);
    b.finish();
    await second;
  });

  it('gives the caller the work’s failure, and its permit back', async () => {
    const budget = new BackgroundBudget({ concurrency: 1, busyConcurrency: 1, busyShare: 1 });
    await expect(budget.run(async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    await settled();
    expect(await budget.run(async () => 'next')).toBe('next');
  });

  it('reads its limits from the environment, bounded, with the documented defaults', () => {
    expect(budgetFromEnv({})).toEqual(DEFAULT_BUDGET);
    expect(DEFAULT_BUDGET).toEqual({ concurrency: 4, busyConcurrency: 1, busyShare: 0.2 });
    expect(budgetFromEnv({ BACKGROUND_CONCURRENCY: '8', BACKGROUND_BUSY_CONCURRENCY: '2', BACKGROUND_BUSY_SHARE: '0.5' })).toEqual({
      concurrency: 8,
      busyConcurrency: 2,
      busyShare: 0.5,
    });
    // Out of bounds: the default; the busy concurrency never above the other.
    expect(budgetFromEnv({ BACKGROUND_CONCURRENCY: '0', BACKGROUND_BUSY_SHARE: '2' })).toEqual(DEFAULT_BUDGET);
    expect(budgetFromEnv({ BACKGROUND_CONCURRENCY: '2', BACKGROUND_BUSY_CONCURRENCY: '9' })).toMatchObject({ concurrency: 2, busyConcurrency: 2 });
  });
});

describe('a log tally', () => {
  it('says the first line of a kind at once and counts the others in one line', () => {
    const lines: string[] = [];
    const tally = new LogTally((line) => lines.push(line));
    for (let i = 0; i < 1000; i++) tally.add('notifications order.cancelled not sent (unknown)', `notification ntf_${i} not sent`);
    tally.add('other', 'other line');
    expect(lines).toEqual(['notification ntf_0 not sent', 'other line']);
    tally.flush();
    expect(lines).toEqual(['notification ntf_0 not sent', 'other line', 'notifications order.cancelled not sent (unknown): 999 more in the last 10 s']);
    tally.add('other', 'other line again');
    expect(lines.at(-1)).toBe('other line again');
    tally.flush();
  });
});
