/** How long lines of one kind are counted before the count is said. */
const WINDOW_MS = 10_000;

/**
 * Lines for an expected outcome that may come by the thousand (a mass expiry cancelling orders whose
 * customers nobody knows): the first of a kind is said at once, the others of the next 10 s counted
 * and said in one line. The outcome itself is recorded where it belongs (the record's status and
 * error); the log only has to say that it happens, and how often.
 */
export class LogTally {
  private readonly counts = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly log: (line: string) => void) {}

  /** `kind` groups lines (no ids in it); `line` is said when it is the first of its kind in the window. */
  add(kind: string, line: string): void {
    const seen = this.counts.get(kind);
    if (seen === undefined) {
      this.log(line);
      this.counts.set(kind, 0);
    } else this.counts.set(kind, seen + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), WINDOW_MS);
      this.timer.unref();
    }
  }

  /** Says the counts of the window now, and starts a new one. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [kind, more] of this.counts) if (more > 0) this.log(`${kind}: ${more} more in the last ${WINDOW_MS / 1000} s`);
    this.counts.clear();
  }
}

const tallies = new WeakMap<(line: string) => void, LogTally>();
/** The tally of a log function (one per log, so lines of one process's subgraph are counted together). */
export function tallyOf(log: (line: string) => void): LogTally {
  let tally = tallies.get(log);
  if (!tally) {
    tally = new LogTally(log);
    tallies.set(log, tally);
  }
  return tally;
}
