import { Authenticator, identity } from '@backoffice/identity';
import { subgraphDataSource } from '@backoffice/platform';
import type { DataSource } from 'typeorm';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * Live credentials are remembered in process; these tests hold the ways they are forgotten. A second
 * Authenticator on its own connections stands for another process (another identity replica).
 */
let t: TestSystem;
let elsewhere: DataSource;
let other: Authenticator;
const logs: string[] = [];

beforeAll(async () => {
  t = await startTestSystem();
  elsewhere = await subgraphDataSource(t.databaseUrl, identity).initialize();
  other = new Authenticator(elsewhere, { log: (line) => logs.push(line) });
  await other.start();
});
afterAll(async () => {
  await other.stop();
  await elsewhere.destroy();
  await t.stop();
});

const newKey = async () => (await t.command('iam.api_key.create', { name: 'remembered', scopes: ['audit.read'] })).body;
const whoami = (token: string) => t.read('/internal/whoami', {}, token);
/** Changes a credential behind the commands' back: nobody is told. */
const expireSilently = (credentialId: string) => t.sql(`UPDATE identity.credential SET expires_at = now() - interval '1 second' WHERE id = $1`, [credentialId]);

describe('remembered credentials', () => {
  it('serves a used token from memory, still checking its secret', async () => {
    const key = await newKey();
    expect((await whoami(key.token)).status).toBe(200);
    await expireSilently(key.credential_id);
    // Remembered: a change no command made is not seen (this is what makes the tests below able to fail).
    expect((await whoami(key.token)).status).toBe(200);
    const wrongSecret = `${key.token.slice(0, -4)}AAAA`;
    expect((await whoami(wrongSecret)).status).toBe(401);
  });

  it('forgets a key at once in the process that revoked or rotated it', async () => {
    const revoked = await newKey();
    const rotated = await newKey();
    expect((await whoami(revoked.token)).status).toBe(200);
    expect((await whoami(rotated.token)).status).toBe(200);
    await t.command('iam.api_key.revoke', { api_key_id: revoked.api_key_id });
    await t.command('iam.api_key.rotate', { api_key_id: rotated.api_key_id, overlap_hours: 0 });
    expect((await whoami(revoked.token)).status).toBe(401);
    expect((await whoami(rotated.token)).status).toBe(401);
  });

  it('forgets a key revoked by another process as soon as the notification arrives', async () => {
    const key = await newKey();
    expect(await other.authenticate(key.token)).toMatchObject({ api_key_id: key.api_key_id });
    await expireSilently(key.credential_id);
    expect(await other.authenticate(key.token)).not.toBeNull();
    await t.command('iam.api_key.revoke', { api_key_id: key.api_key_id });
    await eventually(async () => ((await other.authenticate(key.token)) === null ? true : undefined), 2000);
  });

  it('looks every token up while its notifications are down, and remembers again once they are back', async () => {
    const key = await newKey();
    expect(await other.authenticate(key.token)).not.toBeNull();
    await t.sql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'backoffice-identity-listen' AND datname = current_database()`,
    );
    await eventually(async () => (logs.some((line) => line.includes('credential notifications lost')) ? true : undefined), 2000);
    // Deaf: what it knew is gone, and a change nobody announced is seen at once.
    await expireSilently(key.credential_id);
    expect(await other.authenticate(key.token)).toBeNull();
    // Listening again (it retries within a second): remembers again. A connection may be back before
    // its LISTEN is: the proof is a fresh key still answered after a change nobody announced.
    await eventually(async () => {
      await new Promise((r) => setTimeout(r, 200));
      const fresh = await newKey();
      if (!(await other.authenticate(fresh.token))) return undefined;
      await expireSilently(fresh.credential_id);
      return (await other.authenticate(fresh.token)) ? true : undefined;
    }, 5000);
    const [listening] = await t.sql(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'backoffice-identity-listen' AND datname = current_database()`,
    );
    expect(listening.n).toBe(2);
  });
});
