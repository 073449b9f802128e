import { defineOperation, t } from '@backoffice/platform';
import { adminUserView, adminUserViewOf, OPERATOR_STATES, type AdminUserRow } from '../domain/operators';

/** The tenant's operators; email and name are personal: masked without pii.read. */
export const adminUsersRead = defineOperation({
  name: 'read.internal.admin_users',
  kind: 'read',
  access: 'internal',
  scope: 'admin.users.read',
  summary: "The tenant's operators (extension), oldest first, optionally by status; email (***@domain) and name (***) are masked without pii.read.",
  restPath: '/internal/admin-users',
  input: t.object({
    status: t.optional(t.enum(OPERATOR_STATES)),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: t.object({ items: t.array(adminUserView), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) }),
  events: [],
  async handler({ input, actor, db }) {
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const params: unknown[] = [actor.tenant_id];
    let where = 'tenant_id = $1';
    if (input.status) {
      params.push(input.status);
      where += ` AND status = $2`;
    }
    const [rows, [{ total }]] = (await Promise.all([
      db.query(`SELECT * FROM identity.admin_user WHERE ${where} ORDER BY created_at, id LIMIT ${limit} OFFSET ${(page - 1) * limit}`, params),
      db.query(`SELECT count(*)::int AS total FROM identity.admin_user WHERE ${where}`, params),
    ])) as [AdminUserRow[], Array<{ total: number }>];
    return { items: rows.map((row) => adminUserViewOf(row, actor)), page, limit, total };
  },
});
