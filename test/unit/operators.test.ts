import { isLoopbackUrl, loginWaitMs, newCode, parseSessionToken, roleScopes } from '../../subgraphs/identity/src/domain/operators';
import { ALL_SCOPES } from '../../subgraphs/identity/src/domain/scopes';

/** Operator rules alone (docs/operators-and-auth.md), without the system. State changes are tested elsewhere. */
describe('login waits', () => {
  it('waits nothing below 5 failures, then 1 minute doubling, at most an hour', () => {
    expect([0, 1, 4].map(loginWaitMs)).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8, 9].map(loginWaitMs)).toEqual([60_000, 120_000, 240_000, 480_000, 960_000]);
    expect([10, 11, 50, 10_000].map(loginWaitMs)).toEqual([1_920_000, 3_600_000, 3_600_000, 3_600_000]);
  });
});

describe('session tokens', () => {
  const ulid = '01JABCDEFGHJKMNPQRSTVWXYZ0';
  const secret = `${'A'.repeat(40)}_-9`;

  it('reads the session id and secret from bos_<ulid>_<43 base64url characters>', () => {
    expect(parseSessionToken(`bos_${ulid}_${secret}`)).toEqual({ session_id: `ses_${ulid}`, secret });
  });

  it('refuses any other shape', () => {
    for (const bad of [
      '',
      `bos_${ulid}`,
      `bos_${ulid}_${secret}x`,
      `bos_${ulid}_${secret.slice(1)}`,
      `bos_${ulid.toLowerCase()}_${secret}`,
      `bos_${ulid.replace('0', 'I')}_${secret}`,
      `key_${ulid}_${secret}`,
      ` bos_${ulid}_${secret}`,
      `bos_${ulid}_${secret.slice(1)}=`,
    ]) {
      expect([bad, parseSessionToken(bad)]).toEqual([bad, null]);
    }
  });
});

describe('loopback links', () => {
  it('finds 127.0.0.0/8, ::1 and localhost in any spelling the URL parser takes', () => {
    for (const url of [
      'http://localhost:3000/login',
      'https://LOCALHOST./x',
      'http://admin.localhost/',
      'http://127.0.0.1/',
      'http://127.5.6.7:8080/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://[::1]:4000/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      expect([url, isLoopbackUrl(url)]).toEqual([url, true]);
    }
  });

  it('leaves other addresses and text that is no URL', () => {
    for (const url of ['https://admin.example.com/login', 'http://10.0.0.1/', 'http://[::2]/', 'http://localhost.example.com/', 'not a url', '', '/login']) {
      expect([url, isLoopbackUrl(url)]).toEqual([url, false]);
    }
  });
});

describe('roles', () => {
  it('gives owners every scope, admins all but the owner-only ones, staff the documented few', () => {
    expect(roleScopes('owner')).toEqual([...ALL_SCOPES]);
    const admin = roleScopes('admin');
    expect(admin).not.toContain('admin.users.write');
    expect(admin).not.toContain('extensions.egress.consent');
    expect(admin).toHaveLength(ALL_SCOPES.length - 2);
    expect(roleScopes('staff').sort()).toEqual([
      'admin.users.read',
      'catalog.admin.read',
      'content.read',
      'inventory.reserve',
      'logistics.read',
      'order.read',
      'order.write',
    ]);
  });
});

describe('login codes', () => {
  it('are 6 digits, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, newCode);
    expect(codes.filter((code) => !/^\d{6}$/.test(code))).toEqual([]);
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1900);
  });
});
