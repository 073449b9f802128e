import { conflict, defineOperation, newId, t, sqlOf } from '@backoffice/platform';
import { adminUserInvited } from '../events';
import { assertMayGrant, defaultLocale, isLoopbackUrl, localeField, nameField, primaryStore, roleField } from '../domain/operators';

/** Invites an operator: lock (the unique email index), check, stage the write, emit, return. */
export const adminUserInvite = defineOperation({
  name: 'admin_user.invite',
  kind: 'command',
  access: 'internal',
  scope: 'admin.users.write',
  summary:
    'Invites an operator by email with status `invited` (the first one-time-code or OIDC login activates them). The ' +
    'email is unique per tenant among operators not deactivated (conflict). role defaults to staff and must be ' +
    'within the caller’s scopes; locale defaults to the instance’s DEFAULT_LOCALE; admin_login_url is used only in ' +
    'the invitation mail, and a loopback address is dropped.',
  input: t.object({
    email: t.email(),
    name: t.optional(nameField),
    role: t.optional(roleField),
    locale: t.optional(localeField),
    admin_login_url: t.optional(
      t.string({ format: 'uri', maxLength: 2000, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', description: 'an http(s) address; another scheme is refused' }),
    ),
  }),
  result: t.object({ admin_user_id: t.string() }),
  events: [adminUserInvited],
  async handler({ input, actor, db, stage, emit }) {
    const role = input.role ?? 'staff';
    assertMayGrant(actor, role);
    const email = input.email.trim();
    // A plain check for a clear answer; the unique index (tenant, lower(email)) among live operators
    // settles two invitations racing: the loser's insert is a unique violation, answered as conflict.
    const [taken] = await sqlOf(db).rows<{ id: string }>(
      `SELECT id FROM identity.admin_user WHERE tenant_id = $1 AND lower(email) = lower($2) AND status <> 'deactivated'`,
      [actor.tenant_id, email],
    );
    if (taken) throw conflict('an operator with this email already exists in the tenant', { reason: 'duplicate', field: 'email' });
    const store = await primaryStore(db, actor.tenant_id);
    const adminUserId = newId('adm');
    const name = input.name ?? email.slice(0, email.lastIndexOf('@')).slice(0, 120);
    const locale = input.locale ?? defaultLocale();
    const link = input.admin_login_url && !isLoopbackUrl(input.admin_login_url) ? input.admin_login_url : null;
    stage(`INSERT INTO identity.admin_user (id, tenant_id, email, name, role, locale, status, invited_by) VALUES ($1, $2, $3, $4, $5, $6, 'invited', $7)`, [
      adminUserId,
      actor.tenant_id,
      email,
      name,
      role,
      locale,
      actor.api_key_id,
    ]);
    emit(adminUserInvited, {
      admin_user_id: adminUserId,
      email,
      name,
      role,
      locale,
      status: 'invited',
      store_id: store.id,
      store_handle: store.handle,
      admin_login_url: link,
      invited_by: actor.api_key_id,
    });
    return { admin_user_id: adminUserId };
  },
});
