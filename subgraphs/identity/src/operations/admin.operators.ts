import { connectionArgs, connectionOf, escapeLike, forbidden, mapNodes, t, conditions } from '@backoffice/platform';
import { adminUserView, adminUserViewOf, OPERATOR_MACHINE, roleEnum, type AdminUserRow } from '../domain/operators';
import { defineIdentityOperation } from '../ports';

/** The tenant's operators as a Relay connection (GraphQL only): `read.internal.admin_users` stays the paged read of REST. */
export const adminOperators = defineIdentityOperation({
  name: 'admin.operators',
  kind: 'read',
  access: 'internal',
  scope: 'admin.users.read',
  summary:
    "The tenant's operators as a Relay connection, oldest first unless ordered otherwise; filters status, role and `q` (name or email: " +
    'personal, so it needs pii.read); email and name are masked without pii.read. Never login codes nor sessions.',
  connection: { field: 'operators' },
  input: connectionArgs(
    'Operator',
    ['created_at', 'status'] as const,
    t.object({
      status: t.optional(OPERATOR_MACHINE.enum()),
      role: t.optional(roleEnum),
      q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches name and email; needs pii.read' })),
    }),
  ),
  result: connectionOf(adminUserView, 'Operator'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`u.tenant_id = ${actor.tenant_id}`;
    const { status, role, q } = input.filter ?? {};
    if (status) where.add`u.status = ${status}`;
    if (role) where.add`u.role = ${role}`;
    if (q) {
      // Searching masked fields would tell their values one guess at a time.
      if (!actor.scopes.includes('pii.read')) throw forbidden('pii.read');
      const like = where.param(`%${escapeLike(q)}%`);
      where.add`(u.name ILIKE ${like} OR u.email ILIKE ${like})`;
    }
    const page = await sql.connection<AdminUserRow>(
      {
        select: 'u.*',
        from: 'identity.admin_user u',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'u.created_at', type: 'timestamptz' }, status: { sql: 'u.status', type: 'text' } },
        defaultOrder: { field: 'created_at', direction: 'ASC' },
        id: 'u.id',
      },
      input,
    );
    return mapNodes(page, (row) => adminUserViewOf(row, actor));
  },
});
