import { type AppError, validationFailed } from '@backoffice/platform';

/**
 * An OIDC login begun by the admin front-end (`GET /v1/auth/oidc/start?store=…&return_to=/admin/…`)
 * ends as the code sign-in does: the session in the HttpOnly cookie and the browser back in the admin,
 * never a token in a page. Where to go back is kept in a cookie beside the attempt's binding
 * (auth-routes.ts), and is a path of the admin only, so the login cannot be made to redirect elsewhere.
 */
export const RETURN_COOKIE = 'bo_oidc_return';

/** At most 512 characters of a URL's path and query, under /admin, with no `..` segment. */
const ADMIN_PATH = /^\/admin(?:[/?][A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)?$/;

/** The return path, checked; undefined when none is given; `validation_failed` when it is not one of the admin's. */
export function adminReturnPath(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.length > 512 || !ADMIN_PATH.test(value) || /(^|\/)\.\.?(\/|\?|$)/.test(value))
    throw validationFailed('return_to must be a path of the admin front-end (/admin/…, at most 512 characters)', { reason: 'pattern', field: 'return_to' });
  return value;
}

/** The return path kept in the cookie, checked again (a cookie is the browser's to send): undefined when absent or not the admin's. */
export function keptReturnPath(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  try {
    return adminReturnPath(decodeURIComponent(cookie));
  } catch {
    return undefined;
  }
}

/**
 * Where a refused admin login goes: the sign-in page, told the refusal's kind and reason in its
 * fragment (never the message, which the page words itself: a link cannot put words of its choosing
 * on the admin's page).
 */
export function signInRefusedPath(error: AppError): string {
  const said = new URLSearchParams({ oidc_error: error.kind, ...(error.reason ? { oidc_reason: error.reason } : {}) });
  return `/admin/sign-in#${said}`;
}
