import { conflict, defineOperation, t, validationFailed } from '@backoffice/platform';
import { adminUserUpdated } from '../events';
import { assertMayGrant, localeField, lockOperator, nameField, notifyOperatorChanged, OPERATOR_MACHINE, roleEnum, roleField } from '../domain/operators';

/** Changes an operator's name, role or locale; live sessions follow at once (every process). */
export const adminUserUpdate = defineOperation({
  name: 'admin_user.update',
  kind: 'command',
  access: 'internal',
  scope: 'admin.users.write',
  summary:
    "Changes an operator's name, role or locale (extension); omitted fields keep their value. Giving or taking a " +
    "role needs every scope of it (subset-of-issuer); a role change applies to the operator's live sessions at " +
    'once. A deactivated operator cannot be changed (conflict).',
  input: t.object({
    admin_user_id: t.id(),
    name: t.optional(nameField),
    role: t.optional(roleField),
    locale: t.optional(localeField),
  }),
  result: t.object({ admin_user_id: t.string(), name: t.string(), role: roleEnum, locale: t.string(), status: OPERATOR_MACHINE.enum() }),
  events: [adminUserUpdated],
  async handler({ input, actor, db, stage, emit }) {
    if (input.name === undefined && input.role === undefined && input.locale === undefined)
      throw validationFailed('give at least one of name, role, locale', { reason: 'required' });
    const operator = await lockOperator(db, actor, input.admin_user_id);
    if (!OPERATOR_MACHINE.allows('update', operator.status))
      throw conflict(`admin user ${operator.id} is ${operator.status}: it cannot be changed`, { reason: 'illegal_transition' });
    assertMayGrant(actor, operator.role);
    if (input.role !== undefined) assertMayGrant(actor, input.role);
    const next = { name: input.name ?? operator.name, role: input.role ?? operator.role, locale: input.locale ?? operator.locale };
    const changed = (['name', 'role', 'locale'] as const).filter((field) => next[field] !== operator[field]);
    const result = { admin_user_id: operator.id, ...next, status: operator.status };
    if (!changed.length) return result;
    await notifyOperatorChanged(db, operator.id);
    stage(`UPDATE identity.admin_user SET name = $2, role = $3, locale = $4, updated_at = now() WHERE id = $1`, [
      operator.id,
      next.name,
      next.role,
      next.locale,
    ]);
    emit(adminUserUpdated, { admin_user_id: operator.id, email: operator.email, ...next, status: operator.status, changed: [...changed] });
    return result;
  },
});
