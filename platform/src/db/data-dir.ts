import { resolve } from 'node:path';

/** DATA_DIR, else ./.data. A module of its own: the CLI reads it without loading the platform (pg, TypeORM). */
export function dataDir(): string {
  return resolve(process.env.DATA_DIR ?? './.data');
}
