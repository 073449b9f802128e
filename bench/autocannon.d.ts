/** The part of autocannon 9's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
      headers?: Record<string, string>;
      body?: string;
      timeout?: number;
      pipelining?: number;
      /** Requests per second over all connections. */
      overallRate?: number;
      /** Request sequence; setupRequest may rewrite each request just before it is sent. */
      requests?: Array<Partial<Request> & { setupRequest?: (request: Request, context: Record<string, unknown>) => Request | null }>;
    }
    interface Request {
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: string | Buffer;
    }
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
      p99_9?: number;
      [percentile: string]: number | undefined;
    }
    interface Result {
      url: string;
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      duration: number;
      start: Date;
      finish: Date;
      connections: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
