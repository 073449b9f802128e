import type { FastifyInstance } from 'fastify';

/**
 * What background work may take of a process: relays' batches, consumers' batches, task batches and
 * scheduled job runs each run under a permit of this budget (a relay without one, beside the
 * consumers' permit, took far more of the database under load for no faster drain:
 * docs/decisions/background-work.md). `concurrency` permits at once
 * while no request is in flight, `busyConcurrency` while requests are. And each permit, once its
 * work is done, idles for `(1 - busyShare) / busyShare` times as long as the work took, scaled by the
 * part of that time requests were in flight (none: no pause; all of it: the full pause), or until
 * the requests end: under saturating request load, background work has at most `busyShare` of the
 * time of `busyConcurrency` permits; under light load, it barely slows. It never stops: the backlog
 * drains under any load, slower. A permit is one batch under way; a consumer's batch holds one
 * pooled connection at a time.
 */
export interface BudgetLimits {
  concurrency: number;
  busyConcurrency: number;
  /** In (0, 1]: 1 never pauses. */
  busyShare: number;
}

/** The documented defaults (docs/deployment.md). */
export const DEFAULT_BUDGET: BudgetLimits = { concurrency: 4, busyConcurrency: 1, busyShare: 0.2 };

/** A pause after one batch is at most this long, so that a slow batch does not idle its permit for minutes. */
const MAX_PAUSE_MS = 5_000;

const bounded = (raw: string | undefined, fallback: number, min: number, max: number) => {
  const value = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(value) && value >= min && value <= max ? value : fallback;
};

/** BACKGROUND_CONCURRENCY (1..64), BACKGROUND_BUSY_CONCURRENCY (1..64, at most the former), BACKGROUND_BUSY_SHARE (0.01..1). */
export function budgetFromEnv(env: NodeJS.ProcessEnv = process.env): BudgetLimits {
  const concurrency = Math.trunc(bounded(env.BACKGROUND_CONCURRENCY, DEFAULT_BUDGET.concurrency, 1, 64));
  return {
    concurrency,
    busyConcurrency: Math.min(concurrency, Math.trunc(bounded(env.BACKGROUND_BUSY_CONCURRENCY, DEFAULT_BUDGET.busyConcurrency, 1, 64))),
    busyShare: bounded(env.BACKGROUND_BUSY_SHARE, DEFAULT_BUDGET.busyShare, 0.01, 1),
  };
}

export class BackgroundBudget {
  private inFlight = 0;
  private held = 0;
  private readonly waiting: Array<() => void> = [];
  /** Pauses that end as soon as no request is in flight. */
  private readonly pauses = new Set<() => void>();
  /** Time with requests in flight, summed (ms), and since when the current stretch runs. */
  private busyMs = 0;
  private busySince = 0;

  constructor(
    readonly limits: BudgetLimits = budgetFromEnv(),
    /** The clock, in ms (a test's own). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A request (foreground work) has begun; the function returned says it ended (once, whatever calls it again). */
  foreground(): () => void {
    if (this.inFlight === 0) this.busySince = this.now();
    this.inFlight += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      if (this.inFlight === 0) {
        this.busyMs += this.now() - this.busySince;
        for (const end of [...this.pauses]) end();
        this.grant();
      }
    };
  }

  /** Whether requests are in flight. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** Permits held now (work under way or pausing after it) and work waiting for one. */
  get state(): { held: number; waiting: number; inFlight: number } {
    return { held: this.held, waiting: this.waiting.length, inFlight: this.inFlight };
  }

  /** Runs background work under a permit; resolves with it as soon as it is done (the pause, if any, follows apart). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await new Promise<void>((ok) => {
      this.waiting.push(ok);
      this.grant();
    });
    const measure = this.measure();
    try {
      return await work();
    } finally {
      void this.pause(measure()).then(() => {
        this.held -= 1;
        this.grant();
      });
    }
  }

  /** Starts timing a batch; the function returned answers the pause owed after it. */
  private measure(): () => number {
    const started = this.now();
    const busyBefore = this.busyTime();
    return () => {
      const took = this.now() - started;
      const { busyShare } = this.limits;
      // The part of the work's time that requests were in flight scales the pause.
      const busyPart = took > 0 ? (this.busyTime() - busyBefore) / took : this.busy ? 1 : 0;
      return busyShare < 1 ? Math.min(MAX_PAUSE_MS, (took * busyPart * (1 - busyShare)) / busyShare) : 0;
    };
  }

  private busyTime(): number {
    return this.busyMs + (this.inFlight > 0 ? this.now() - this.busySince : 0);
  }

  private grant(): void {
    const limit = () => (this.busy ? this.limits.busyConcurrency : this.limits.concurrency);
    for (let next = this.waiting.at(0); next && this.held < limit(); next = this.waiting.at(0)) {
      this.waiting.shift();
      this.held += 1;
      next();
    }
  }

  private pause(ms: number): Promise<void> {
    if (ms <= 0 || !this.busy) return Promise.resolve();
    return new Promise((ok) => {
      const end = () => {
        clearTimeout(timer);
        this.pauses.delete(end);
        ok();
      };
      const timer = setTimeout(end, ms);
      timer.unref();
      this.pauses.add(end);
    });
  }
}

let processBudget: BackgroundBudget | null = null;
/** The budget of this process (from the environment), shared by its bus, relays and HTTP servers. */
export function backgroundBudget(): BackgroundBudget {
  processBudget ??= new BackgroundBudget();
  return processBudget;
}

/**
 * Counts a server's requests as foreground work of `budget`, from their arrival to their answer (or
 * the client going away). A live event stream is left out: it stays open for hours, mostly idle.
 */
export function countRequests(app: FastifyInstance, budget: BackgroundBudget = backgroundBudget()): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/v1/stream/')) reply.raw.once('close', budget.foreground());
    done();
  });
}
