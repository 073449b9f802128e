import type { LoginCodeHandoff } from '@backoffice/contracts';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import {
  present,
  conflict,
  createRateLimiter,
  defineStateMachine,
  forbidden,
  maskPersonal,
  newId,
  pooledRandomBytes,
  RateLimited,
  t,
  ULID_PATTERN,
  unauthorized,
  vaultKey,
  SecretBox,
  type Actor,
  type OperationCall,
  type RateLimiter,
  type SubgraphRuntime,
  sqlOf,
} from '@backoffice/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { adminUserActivated } from '../events';
import { CREDENTIALS_CHANNEL } from './authenticate';
import { hashSecret } from './tokens';
import { ALL_SCOPES, type Scope } from './scopes';
import type { AdminUser } from '../entities';

// ---------------------------------------------------------------------------------------------
// Roles, states, locales
// ---------------------------------------------------------------------------------------------

export const ROLES = ['owner', 'admin', 'staff'] as const;
export type Role = (typeof ROLES)[number];

/** What `staff` may do: read the back office and work orders. */
const STAFF_SCOPES: readonly Scope[] = [
  'order.read',
  'order.write',
  'catalog.admin.read',
  'logistics.read',
  'content.read',
  'inventory.reserve',
  'admin.users.read',
];
/** What only an owner does: manage operators and keys, arm extension egress. */
const OWNER_ONLY: readonly Scope[] = ['admin.users.write', 'extensions.egress.consent'];

/**
 * The scopes a session of each role carries, computed when the session is used: a scope added to
 * identity's list later reaches owners (and admins, unless owner-only) without a migration.
 */
export function roleScopes(role: string): string[] {
  switch (role) {
    case 'owner':
      return [...ALL_SCOPES];
    case 'admin':
      return ALL_SCOPES.filter((scope) => !OWNER_ONLY.includes(scope));
    case 'staff':
      return ALL_SCOPES.filter((scope) => STAFF_SCOPES.includes(scope));
    default:
      return [];
  }
}

/**
 * An operator's states (the same rows live in identity.admin_user_status) and what may happen in
 * each: the first login activates an invited operator, later ones leave it active; a deactivated
 * operator neither logs in nor changes, and deactivating it again changes nothing.
 */
export const OPERATOR_MACHINE = defineStateMachine({
  name: 'admin user',
  transitions: { invited: ['active', 'deactivated'], active: ['deactivated'], deactivated: [] },
  repeatable: ['deactivated'],
  actions: { login: ['invited', 'active'], update: ['invited', 'active'] },
});
export const OPERATOR_STATES = OPERATOR_MACHINE.states;
export type OperatorState = (typeof OPERATOR_STATES)[number];

export const DOCUMENTED_LOCALES = ['en', 'pt-BR', 'es'] as const;
/** The instance default an operator invited without a locale inherits (DEFAULT_LOCALE, default `en`). */
export function defaultLocale(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.DEFAULT_LOCALE?.trim();
  return value && value.length >= 2 && value.length <= 10 ? value : 'en';
}

/** BCP 47 in its letters, digits and hyphens, 2 to 10 characters as the reference says (`zh-Hant-TW` included). */
export const localeField = t.string({
  minLength: 2,
  maxLength: 10,
  pattern: '^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$',
  description: 'documented values: en, pt-BR, es',
});
export const nameField = t.string({ minLength: 1, maxLength: 120, personal: true });
/** An operator's role, one GraphQL enum wherever it shows. */
export const roleEnum = t.enum(ROLES, { name: 'AdminUserRole' });
export const roleField = t.enum(ROLES, {
  name: 'AdminUserRole',
  description: 'owner: every scope; admin: every scope but admin.users.write and extensions.egress.consent; staff: reads, orders, reservations',
});

/** An operator as reads show it, the federation entity `Operator`; email and name are personal (masked without pii.read). */
export const adminUserView = t.entity(
  'Operator',
  {
    admin_user_id: t.string(),
    email: t.email({ personal: true }),
    name: t.string({ personal: true }),
    role: roleEnum,
    locale: t.string(),
    status: OPERATOR_MACHINE.enum(),
    created_at: t.timestamp(),
    activated_at: t.nullable(t.timestamp()),
    deactivated_at: t.nullable(t.timestamp()),
    failed_logins: t.integer({ minimum: 0, description: 'failed code logins since the last successful login (counted afresh after a day without one)' }),
    last_failed_login_at: t.nullable(t.timestamp()),
    // Until when code logins are refused after repeated failures (see loginWaitMs).
    login_locked_until: t.nullable(t.timestamp()),
  },
  'admin_user_id',
);

export type AdminUserRow = AdminUser;

export function adminUserViewOf(row: AdminUserRow, actor: Actor) {
  const view = {
    admin_user_id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    locale: row.locale,
    status: row.status,
    created_at: row.created_at.toISOString(),
    activated_at: row.activated_at?.toISOString() ?? null,
    deactivated_at: row.deactivated_at?.toISOString() ?? null,
    failed_logins: row.failed_logins,
    last_failed_login_at: row.last_failed_login_at?.toISOString() ?? null,
    login_locked_until: row.login_locked_until?.toISOString() ?? null,
  };
  return actor.scopes.includes('pii.read') ? view : maskPersonal(adminUserView, view);
}

/** The inviter (or updater) must carry every scope of the role it hands out: subset-of-issuer, as for keys. */
export function assertMayGrant(actor: Actor, role: string): void {
  const missing = roleScopes(role).find((scope) => !actor.scopes.includes(scope));
  if (missing) throw forbidden(missing);
}

/** The operator a command acts on, locked; one of another tenant is indistinguishable from none. */
export async function lockOperator(db: EntityManager, actor: Actor, adminUserId: string): Promise<AdminUserRow> {
  // NO KEY: the foreign key check of a login code being inserted (KEY SHARE) does not wait on it, nor it on that.
  const [row] = await sqlOf(db).rows<AdminUserRow>(`SELECT * FROM identity.admin_user WHERE id = $1 AND tenant_id = $2 FOR NO KEY UPDATE`, [
    adminUserId,
    actor.tenant_id,
  ]);
  if (!row) throw conflict(`admin user ${adminUserId} does not exist in this tenant`, { reason: 'not_found', field: 'admin_user_id' });
  return row;
}

/** Every process forgets the operator's sessions (sent in the transaction: delivered at commit). */
export async function notifyOperatorChanged(db: EntityManager, adminUserId: string): Promise<void> {
  await db.query(`SELECT pg_notify('${CREDENTIALS_CHANNEL}', $1)`, [adminUserId]);
}

/** A loopback address (127.0.0.0/8, ::1, `localhost` and its subdomains): the invitation drops such a link. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return false;
  let address = ipaddr.parse(bare);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === 'loopback';
}

/** The store a login names (its handle), with its tenant; null when there is none. */
export async function storeByHandle(db: EntityManager | DataSource, handle: string): Promise<{ id: string; tenant_id: string; handle: string } | null> {
  const [row] = await sqlOf(db).rows<{ id: string; tenant_id: string; handle: string }>(`SELECT id, tenant_id, handle FROM identity.store WHERE handle = $1`, [
    handle,
  ]);
  return row ?? null;
}

/** The tenant's first store: the one an invitation names (sender, reply-to, the store to log in at). */
export async function primaryStore(db: EntityManager, tenantId: string): Promise<{ id: string; handle: string }> {
  const [row] = await sqlOf(db).rows<{ id: string; handle: string }>(
    `SELECT id, handle FROM identity.store WHERE tenant_id = $1 ORDER BY created_at, id LIMIT 1`,
    [tenantId],
  );
  if (!row) throw conflict('the tenant has no store', { reason: 'not_found' });
  return row;
}

// ---------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------

/** Sessions last 12 hours from login (no sliding renewal); logout or deactivation ends them at once. */
export const SESSION_TTL_MS = 12 * 3_600_000;
export const SESSION_PREFIX = 'bos_';
const SESSION_TOKEN = new RegExp(`^${SESSION_PREFIX}(${ULID_PATTERN})_([A-Za-z0-9_-]{43})$`);

export function parseSessionToken(token: string): { session_id: string; secret: string } | null {
  const match = SESSION_TOKEN.exec(token);
  return match ? { session_id: `ses_${match[1]}`, secret: match[2] } : null;
}

export const sessionResult = t.object({
  token: t.string({ description: 'opaque session token, shown once: send it as `Authorization: Bearer <token>`' }),
  session_id: t.string(),
  expires_at: t.timestamp(),
  admin_user_id: t.string(),
  tenant_id: t.string(),
  role: roleEnum,
  activated: t.boolean({ description: 'true when this login activated an invited operator' }),
});

/**
 * Logs an operator in, for a public login command: the first login activates an invited one
 * (`admin_user.activated`), a session is written (its secret hashed), the audit row and events go
 * to the operator. Answers the command's result (`sessionResult`).
 */
export function logIn(
  call: Pick<OperationCall<unknown>, 'stage' | 'emit' | 'attribute'>,
  operator: AdminUserRow,
  method: 'login_code' | 'oidc',
  now = new Date(),
) {
  if (!OPERATOR_MACHINE.allows('login', operator.status)) throw unauthorized('this operator cannot log in');
  const sessionId = newId('ses');
  const secret = pooledRandomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  call.stage(`INSERT INTO identity.operator_session (id, tenant_id, admin_user_id, secret_hash, method, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    sessionId,
    operator.tenant_id,
    operator.id,
    hashSecret(secret),
    method,
    expiresAt,
  ]);
  const activated = OPERATOR_MACHINE.can(operator.status, 'active');
  // A login, by either way, ends the count of failed code logins and their wait. One UPDATE of the
  // row: staged writes are one statement, in which a row updated twice keeps only one of the changes.
  if (activated) {
    call.stage(`UPDATE identity.admin_user SET status = $2, activated_at = $3, updated_at = $3, failed_logins = 0, login_locked_until = NULL WHERE id = $1`, [
      operator.id,
      'active',
      now,
    ]);
  } else {
    call.stage(`UPDATE identity.admin_user SET failed_logins = 0, login_locked_until = NULL WHERE id = $1 AND failed_logins > 0`, [operator.id]);
  }
  present(call.attribute, 'attribute')({ tenant_id: operator.tenant_id, actor_id: operator.id, actor_name: operator.name });
  if (activated) {
    call.emit(adminUserActivated, {
      admin_user_id: operator.id,
      email: operator.email,
      name: operator.name,
      role: operator.role,
      locale: operator.locale,
      method,
    });
  }
  return {
    token: `${SESSION_PREFIX}${sessionId.slice(4)}_${secret}`,
    session_id: sessionId,
    expires_at: expiresAt.toISOString(),
    admin_user_id: operator.id,
    tenant_id: operator.tenant_id,
    role: operator.role,
    activated,
  };
}

// ---------------------------------------------------------------------------------------------
// One-time codes
// ---------------------------------------------------------------------------------------------

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
/**
 * Codes an operator holds at once: a new request keeps the latest earlier ones (the oldest beyond
 * these ends), so asking for codes in someone's name cannot knock out the one they are typing. A
 * failed verification spends an attempt of every live code: more codes give no more guesses.
 */
export const LIVE_CODES = 3;
/** Failed code logins (across codes, since the last login) before code logins wait. */
export const FAILURES_BEFORE_WAIT = 5;

/** How long code logins wait after `failures` failed ones: none below 5, then 1 minute doubling, at most an hour. */
export function loginWaitMs(failures: number): number {
  return failures < FAILURES_BEFORE_WAIT ? 0 : Math.min(60_000 * 2 ** (failures - FAILURES_BEFORE_WAIT), 3_600_000);
}

/** Failed code logins are forgotten after a day without one: the count restarts. */
export const FAILURES_FORGOTTEN_AFTER_MS = 24 * 3_600_000;

/**
 * Checks a code against the operator's live codes, in a transaction of its own (committed whatever
 * the command then does): the operator's row is locked first, so guesses sent at once are judged
 * one by one. A failure while the operator has live codes spends an attempt of each (the newest
 * LIVE_CODES are compared, every live one is charged) and counts against the operator; while the
 * operator waits, nothing is compared or counted. Answers the matching code, or null.
 */
export async function checkLoginCode(db: EntityManager, tenantId: string, email: string, code: string): Promise<{ id: string; admin_user_id: string } | null> {
  const [operator] = await sqlOf(db).rows<{ id: string; failed_logins: number; waiting: boolean }>(
    `SELECT u.id, CASE WHEN u.last_failed_login_at > now() - $3 * interval '1 millisecond' THEN u.failed_logins ELSE 0 END AS failed_logins,
            coalesce(u.login_locked_until > now(), false) AS waiting
     FROM identity.admin_user u JOIN identity.admin_user_status s ON s.status = u.status
     WHERE u.tenant_id = $1 AND lower(u.email) = lower($2) AND s.can_log_in FOR NO KEY UPDATE OF u`,
    [tenantId, email.trim(), FAILURES_FORGOTTEN_AFTER_MS],
  );
  const codes = operator
    ? await sqlOf(db).rows<{ id: string; code_hash: Buffer }>(
        `SELECT id, code_hash FROM identity.login_code WHERE admin_user_id = $1 AND used_at IS NULL AND expires_at > now() AND attempts < $2
         ORDER BY created_at DESC, id DESC LIMIT ${LIVE_CODES}`,
        [operator.id, CODE_MAX_ATTEMPTS],
      )
    : [];
  // Every slot is compared (decoys for the missing), so how many codes are live does not show in the time taken.
  let match: string | null = null;
  for (let i = 0; i < LIVE_CODES; i++) {
    const slot = codes[i];
    const given = codeHash(slot?.id ?? 'none', code);
    if (timingSafeEqual(given, slot?.code_hash ?? Buffer.alloc(given.length)) && slot) match = slot.id;
  }
  // No live code, nothing to guess: a failure is not counted (a stranger cannot make an operator wait without mailing it codes).
  if (!operator || operator.waiting || !codes.length) return null;
  if (match) return { id: match, admin_user_id: operator.id };
  const failures = operator.failed_logins + 1;
  const wait = loginWaitMs(failures);
  // Every live code is charged, also one beyond the newest LIVE_CODES (two requests at once may leave one more).
  await sqlOf(db).run(
    `UPDATE identity.login_code SET attempts = attempts + 1, sealed_code = CASE WHEN attempts + 1 >= $2 THEN NULL ELSE sealed_code END
     WHERE admin_user_id = $1 AND used_at IS NULL AND expires_at > now() AND attempts < $2`,
    [operator.id, CODE_MAX_ATTEMPTS],
  );
  await sqlOf(db).run(
    `UPDATE identity.admin_user SET failed_logins = $2, last_failed_login_at = now(), login_locked_until = CASE WHEN $3::int > 0 THEN now() + $3::int * interval '1 millisecond' END WHERE id = $1`,
    [operator.id, failures, wait],
  );
  return null;
}

/**
 * Public login commands answer no sooner than this after they start (plus up to a quarter more at
 * random; `minimumAnswerMs`): whether an email is an operator's, or has live codes, takes no
 * visibly different time, as long as the work takes less.
 */
export const LOGIN_FLOOR_MS = 100;

/** A 6-digit code, uniformly drawn. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The writes of a new code for an operator: the latest earlier codes stay live (see LIVE_CODES), older
 * ones end with their sealed copies erased; then the code, hashed, and `sealed` for the mail, or not
 * at all for a code handed over otherwise (the first start's sign-in link).
 */
export function loginCodeWrites(operator: { id: string; tenant_id: string }, loginCodeId: string, code: string, expiresAt: Date, sealed: boolean) {
  return [
    {
      sql: `UPDATE identity.login_code SET sealed_code = NULL, used_at = now() WHERE admin_user_id = $1 AND used_at IS NULL AND id NOT IN (
         SELECT id FROM identity.login_code WHERE admin_user_id = $1 AND used_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id DESC LIMIT ${LIVE_CODES - 1})`,
      params: [operator.id],
    },
    {
      sql: `INSERT INTO identity.login_code (id, tenant_id, admin_user_id, code_hash, sealed_code, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      params: [loginCodeId, operator.tenant_id, operator.id, codeHash(loginCodeId, code), sealed ? sealCode(loginCodeId, operator.id, code) : null, expiresAt],
    },
  ];
}

/** Codes are hashed with the code's id, so equal codes of two requests hash apart. */
export function codeHash(loginCodeId: string, code: string): Buffer {
  return createHash('sha256').update(`${loginCodeId}:${code}`).digest();
}

/** The AES-GCM additional data of a code's sealed copy: it opens for that code record only. */
const codeAad = (loginCodeId: string, adminUserId: string) => JSON.stringify(['login_code.v1', loginCodeId, adminUserId]);

let box: SecretBox | null = null;
/** The box sealing codes for the mail (the deployment's VAULT_KEY, or the generated key under DATA_DIR). */
function codeBox(): SecretBox {
  box ??= new SecretBox(vaultKey());
  return box;
}

export function sealCode(loginCodeId: string, adminUserId: string, code: string): string {
  return codeBox().seal(code, codeAad(loginCodeId, adminUserId));
}

export function loginCodeHandoffOf(dataSource: DataSource): LoginCodeHandoff {
  return {
    async open(loginCodeId) {
      const [row] = await sqlOf(dataSource).rows<{
        id: string;
        admin_user_id: string;
        tenant_id: string;
        sealed_code: string;
        expires_at: Date;
        email: string;
        name: string;
        locale: string;
      }>(
        `SELECT c.id, c.admin_user_id, c.tenant_id, c.sealed_code, c.expires_at, u.email, u.name, u.locale
         FROM identity.login_code c JOIN identity.admin_user u ON u.id = c.admin_user_id JOIN identity.admin_user_status s ON s.status = u.status
         WHERE c.id = $1 AND s.can_log_in AND c.sealed_code IS NOT NULL AND c.used_at IS NULL AND c.expires_at > now() AND c.attempts < $2
           AND c.id IN (SELECT l.id FROM identity.login_code l WHERE l.admin_user_id = c.admin_user_id AND l.used_at IS NULL AND l.expires_at > now()
                        ORDER BY l.created_at DESC, l.id DESC LIMIT ${LIVE_CODES})`,
        [loginCodeId, CODE_MAX_ATTEMPTS],
      );
      if (!row) return null;
      return {
        login_code_id: row.id,
        admin_user_id: row.admin_user_id,
        tenant_id: row.tenant_id,
        code: codeBox().open(row.sealed_code, codeAad(row.id, row.admin_user_id)),
        email: row.email,
        name: row.name,
        locale: row.locale,
        expires_at: row.expires_at.toISOString(),
      };
    },
  };
}

/** The handoff of a started identity subgraph (for the notification pipeline, in process). */
export function loginCodeHandoff(runtime: SubgraphRuntime): LoginCodeHandoff {
  return loginCodeHandoffOf(runtime.dataSource);
}

// ---------------------------------------------------------------------------------------------
// Login rate limits
// ---------------------------------------------------------------------------------------------

/**
 * Token buckets (the platform's limiter: Redis when REDIS_URL is set, shared by every process;
 * per process otherwise). Code requests: 5 per email, refilled one per 3 minutes; 30 per client
 * address, refilled one per 30 seconds. Code verifications: 30 per address, one per 30 seconds
 * (beside the 5 attempts a code allows). OIDC starts: 30 per address, one per 30 seconds.
 */
export const LOGIN_LIMITS = {
  perEmail: { burst: 5, ratePerSecond: 1 / 180 },
  perAddress: { burst: 30, ratePerSecond: 1 / 30 },
} as const;

let limiters: { email: RateLimiter; address: RateLimiter } | null = null;

function loginLimiters() {
  limiters ??= {
    email: createRateLimiter(LOGIN_LIMITS.perEmail, process.env.REDIS_URL),
    address: createRateLimiter(LOGIN_LIMITS.perAddress, process.env.REDIS_URL),
  };
  return limiters;
}

export async function closeLoginLimiters(): Promise<void> {
  const current = limiters;
  limiters = null;
  if (current) await Promise.all([current.email.close(), current.address.close()]);
}

const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

/** Spends one token of the address's bucket for `what` (and of the email's, when given); throws rate_limited. */
export async function spendLoginRate(what: 'code' | 'verify' | 'oidc', address: string | null, email?: string): Promise<void> {
  const { email: perEmail, address: perAddress } = loginLimiters();
  const byAddress = await perAddress.consume(`login:${what}:addr:${address ?? 'unknown'}`);
  if (!byAddress.allowed) throw new RateLimited(byAddress);
  if (email !== undefined) {
    const byEmail = await perEmail.consume(`login:${what}:email:${emailKey(email)}`);
    if (!byEmail.allowed) throw new RateLimited(byEmail);
  }
}

/** The same refusal for every failed verification: nothing says whether the email, the code or its age was wrong. */
export const badCode = () => unauthorized('the code is wrong, expired or used up, or too many codes were wrong lately; wait, then ask for a new one');

/** OIDC `state` values are looked up by their hash. */
export const stateHash = (state: string) => createHash('sha256').update(state).digest();
