import { Client, Pool } from 'pg';
const url = process.env.DATABASE_URL!;
async function loop(name: string, seconds: number, step: (c: import('pg').PoolClient) => Promise<unknown>) {
  const pool = new Pool({ connectionString: url, max: 32 });
  const clients = await Promise.all(Array.from({ length: 32 }, () => pool.connect()));
  let n = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(clients.map(async (c) => { while (Date.now() < end) { await step(c); n++; } c.release(); }));
  await pool.end();
  console.log(name, Math.round(n / seconds), 'tx/s');
}
async function main() {
  const c = new Client({ connectionString: url }); await c.connect();
  await c.query('CREATE TABLE IF NOT EXISTS bench_row (id bigserial PRIMARY KEY, a text NOT NULL, b text NOT NULL)');
  const listener = new Client({ connectionString: url }); await listener.connect(); await listener.query('LISTEN bench_ch');
  let got = 0; listener.on('notification', () => got++);
  const ins = { name: 'i', text: 'INSERT INTO bench_row (a, b) VALUES ($1, $2)', values: ['a', 'b'] };
  await loop('autocommit insert', 4, (k) => k.query(ins));
  await loop('begin/insert/commit', 4, async (k) => { await k.query('BEGIN'); await k.query(ins); await k.query('COMMIT'); });
  await loop('begin/insert/notify/commit', 4, async (k) => { await k.query('BEGIN'); await k.query(ins); await k.query("SELECT pg_notify('bench_ch', '')"); await k.query('COMMIT'); });
  await loop('begin/insert x3/commit', 4, async (k) => { await k.query('BEGIN'); await k.query(ins); await k.query(ins); await k.query(ins); await k.query('COMMIT'); });
  await loop('begin/insert x3/notify/commit', 4, async (k) => { await k.query('BEGIN'); await k.query(ins); await k.query(ins); await k.query(ins); await k.query("SELECT pg_notify('bench_ch', '')"); await k.query('COMMIT'); });
  console.log('notifications received', got);
  await listener.end(); await c.end();
}
void main();
