import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Keys whose values never reach a log line, at any depth: a request's authorization header or
 * cookie, and anything named like a token, secret, password or API key. (pino's own `redact` does
 * this with wildcard paths, far slower a line than this walk: docs/decisions/logging-and-tracing.md.)
 */
export const SECRET_KEY = /authorization|cookie|token|secret|passw(or)?d|api[-_]?key/i;
const MAX_DEPTH = 6;

function censored(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || value instanceof Error || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = censored(item, depth + 1);
      if (clean !== item) {
        copy ??= [...value];
        copy[i] = clean;
      }
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const clean = SECRET_KEY.test(key) ? '[redacted]' : censored(item, depth + 1);
    if (clean !== item) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = clean;
    }
  }
  return copy ?? value;
}

/** A bearer credential quoted inside a message (an error's text, say) is cut out as well. */
const BEARER = /\bBearer\s+[^\s"',;]+/gi;

/** Inside a jest worker: logs are off unless LOG_LEVEL asks (a process a test spawns inherits this; it sets LOG_LEVEL). */
function underTest(): boolean {
  return process.env.JEST_WORKER_ID !== undefined;
}

export interface LoggerSettings {
  /** Default: LOG_LEVEL, else `info` (`silent` under test, so test runs stay quiet). */
  level?: string;
  /** Where lines go (default: stdout). Given one, output is always JSON. */
  destination?: DestinationStream;
}

/**
 * A pino logger writing one JSON object a line. On a terminal (and never under test or CI) the lines
 * go through pino-pretty, in a worker thread, instead.
 */
export function createLogger(settings: LoggerSettings = {}): Logger {
  const level = settings.level ?? (process.env.LOG_LEVEL || (underTest() ? 'silent' : 'info'));
  const pretty = !settings.destination && process.stdout.isTTY === true && !process.env.CI && !underTest();
  const options: LoggerOptions = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { log: (object) => censored(object, 0) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) {
          const arg = args[i] as unknown;
          if (typeof arg === 'string' && /bearer/i.test(arg)) (args as unknown[])[i] = arg.replace(BEARER, 'Bearer [redacted]');
        }
        return method.apply(this, args);
      },
    },
  };
  if (pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  // Levels by name (`"level":"info"`): what log pipelines and people grep for.
  options.formatters = { ...options.formatters, level: (label) => ({ level: label }) };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}

let root: Logger | undefined;

/** The process's logger, made on first use. */
export function rootLogger(): Logger {
  root ??= createLogger();
  return root;
}

/** What `asAppError` and the gateway write for an unexpected failure: `[<request id>] internal error: <cause>`. */
const INTERNAL_ERROR = /^\[([A-Za-z0-9_.-]{1,64})\] internal error: /;

/**
 * The `log(line)` callback the platform passes around, written to a pino logger: the cause of an
 * internal error at `error` with its `request_id` as a field, every other line (lost connections,
 * failed deliveries, the embedded database's notes) at `warn`.
 */
export function lineLog(logger: Logger): (line: string) => void {
  return (line) => {
    const internal = INTERNAL_ERROR.exec(line);
    if (internal) logger.error({ request_id: internal[1] }, line);
    else logger.warn(line);
  };
}
