import type { Refusal } from '../graphql/errors';

/**
 * The operator's session, over the gateway's session routes: `POST /v1/auth/session` takes what
 * `auth.login_code.verify` takes ({ store, email, code }) and answers with an HttpOnly cookie
 * (`bo_session`) the page never reads; every same-origin /graphql request then carries it.
 * `DELETE /v1/auth/session` ends it.
 */
export interface SignInInput {
  store: string;
  email: string;
  code: string;
}

export class SessionError extends Error {
  constructor(
    readonly status: number,
    readonly refusal: Refusal,
  ) {
    super(refusal.message);
  }
}

const SESSION_URL = '/v1/auth/session';

/** The REST error body, `{ error: { kind, message, … } }`, as a refusal (a `field`, when the route gives one, without `input.`). */
async function refusalOf(response: Response): Promise<Refusal> {
  try {
    const body = (await response.json()) as { error?: { kind?: unknown; message?: unknown; reason?: unknown; field?: unknown } };
    const error = body.error ?? {};
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      message: text(error.message) ?? response.statusText,
      code: text(error.kind),
      reason: text(error.reason),
      field: text(error.field)?.replace(/^input\./, ''),
    };
  } catch {
    return { message: `${response.status} ${response.statusText}` };
  }
}

export async function signIn(input: SignInInput | Record<string, string>): Promise<void> {
  const response = await fetch(SESSION_URL, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(input),
  });
  if (!response.ok) throw new SessionError(response.status, await refusalOf(response));
}

export async function signOut(): Promise<void> {
  const response = await fetch(SESSION_URL, { method: 'DELETE', credentials: 'same-origin', headers: { accept: 'application/json' } });
  // Already ended (401) is what signing out wants.
  if (!response.ok && response.status !== 401) throw new SessionError(response.status, await refusalOf(response));
}

/**
 * The fields of a sign-in link's fragment (`/admin/sign-in#store=<handle>&email=<email>&code=<code>`,
 * form-encoded as URLSearchParams reads it), or null when the fragment holds no code. Only the
 * fields POST /v1/auth/session may take are kept (`login_code_id` too, should the link carry one).
 */
export function signInFromFragment(hash: string): Record<string, string> | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (!params.get('code')) return null;
  const body: Record<string, string> = {};
  for (const key of ['store', 'email', 'code', 'login_code_id']) {
    const value = params.get(key);
    if (value) body[key] = value;
  }
  return body;
}
