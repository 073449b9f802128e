import { lineLog, openDatabase, rootLogger, startTracing, stopTracing } from '@backoffice/platform';
import { startWorker } from './worker';

/** `npm run worker`: DATABASE_URL (the request processes' database), WORKER_PORT (default 4005). */
async function main() {
  const log = lineLog(rootLogger().child({ process: 'worker' }));
  if (!process.env.DATABASE_URL) {
    console.error('the worker needs DATABASE_URL: the database the request processes use');
    process.exit(1);
  }
  startTracing({ serviceName: 'backoffice-worker' });
  const database = await openDatabase(log);
  const worker = await startWorker({ url: database.url, log, port: Number(process.env.WORKER_PORT) || 4005, host: process.env.HOST ?? '127.0.0.1' });
  console.log(`worker at ${worker.url} (/readyz, /metrics): ${worker.bus.working().length} queues worked`);
  const shutdown = async () => {
    await worker.stop();
    await database.stop();
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: Error) => {
  console.error(`the worker could not start: ${error.stack ?? error.message}`);
  process.exit(1);
});
