import { conditions, defineOperation, t, pageOf } from '@backoffice/platform';
import { adminUserView, adminUserViewOf, OPERATOR_MACHINE, type AdminUserRow } from '../domain/operators';

/** The tenant's operators; email and name are personal: masked without pii.read. */
export const readInternalAdminUsers = defineOperation({
  name: 'read.internal.admin_users',
  kind: 'read',
  access: 'internal',
  scope: 'admin.users.read',
  summary: "The tenant's operators (extension), oldest first, optionally by status; email (***@domain) and name (***) are masked without pii.read.",
  restPath: '/internal/admin-users',
  input: t.object({
    status: t.optional(OPERATOR_MACHINE.enum()),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOf(adminUserView),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`tenant_id = ${actor.tenant_id}`;
    if (input.status) where.add`status = ${input.status}`;
    const page = await sql.page<AdminUserRow>(
      { select: '*', from: 'identity.admin_user', where: where.sql, orderBy: 'created_at, id', params: where.params },
      input,
    );
    return { ...page, items: page.items.map((row) => adminUserViewOf(row, actor)) };
  },
});
