import { conflict, defineOperation, isOperatorSession, t } from '@backoffice/platform';
import { authLoggedOut } from '../events';
import { notifyOperatorChanged } from '../domain/operators';

/** Ends the calling operator session: its token stops working at once, in every process. */
export const authLogout = defineOperation({
  name: 'auth.logout',
  kind: 'command',
  access: 'internal',
  scope: null,
  summary:
    'Ends the session whose token calls it (extension): the token stops working at once, in every process. Only an ' +
    'operator session logs out; an API key is refused (conflict): revoke it with iam.api_key.revoke.',
  input: t.object({}),
  result: t.object({ session_id: t.string(), logged_out: t.boolean() }),
  events: [authLoggedOut],
  async handler({ actor, db, stage, emit }) {
    if (!isOperatorSession(actor))
      throw conflict('auth.logout ends an operator session; this credential is an API key (revoke it with iam.api_key.revoke)', { reason: 'not_applicable' });
    await notifyOperatorChanged(db, actor.api_key_id);
    stage(`UPDATE identity.operator_session SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [actor.credential_id]);
    emit(authLoggedOut, { admin_user_id: actor.api_key_id, session_id: actor.credential_id });
    return { session_id: actor.credential_id, logged_out: true };
  },
});
