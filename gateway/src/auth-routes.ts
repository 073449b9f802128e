import { randomBytes } from 'node:crypto';
import { present, asAppError, validationFailed, AppError } from '@backoffice/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateHeaders } from '@backoffice/platform';
import type { Caller, Invoker } from './invoker';
import { sendError } from './rest';
import { COMMANDS } from './subgraphs';
import { adminReturnPath, keptReturnPath, RETURN_COOKIE, signInRefusedPath } from './oidc-admin';
import { assertSameOrigin, cookieOf, SESSION_COOKIE, sessionCookie } from './session-cookie';

/**
 * The browser's side of an operator's OIDC login, over the public commands auth.oidc.start and
 * auth.oidc.callback: `GET /v1/auth/oidc/start?store=<handle>` redirects to the provider;
 * `GET /v1/auth/oidc/callback` (the redirect URI registered with the provider) answers the session
 * as JSON, like auth.login_code.verify. The redirect URI is OIDC_REDIRECT_URI. The start sets a
 * cookie binding the attempt to this browser; the callback needs it, so a code and state sent to
 * anyone else (or planted in a victim's browser) are worth nothing. Begun with `return_to` (the admin
 * front-end: oidc-admin.ts), the callback sets the session cookie and redirects there instead, and a
 * refusal of either step redirects to the admin's sign-in page.
 *
 * And the admin front-end's session in a cookie (session-cookie.ts): `POST /v1/auth/session` trades a
 * login code for a session as auth.login_code.verify does, keeping its token in an HttpOnly cookie
 * rather than the answer; `DELETE /v1/auth/session` ends it with auth.logout and clears the cookie.
 */
const BINDING_COOKIE = 'bo_oidc_binding';
export function registerAuthRoutes(app: FastifyInstance, invoker: Invoker, log: (line: string) => void): void {
  const caller = (request: FastifyRequest, reply: FastifyReply): Caller => ({
    authorization: undefined,
    ip: request.ip,
    requestId: reply.getHeader('x-request-id') as string,
    admitted: (admission) => reply.headers(rateHeaders(admission.rate)),
    record: request.observed,
  });
  const command = (name: string) => present(COMMANDS.get(name), `command ${name}`).operation;
  const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  // A session's cookie lives as long as the session.
  const sessionFor = (request: FastifyRequest, session: { token: string; expires_at: string }) =>
    sessionCookie(request, session.token, Math.max(0, Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000)));

  app.get('/v1/auth/oidc/start', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    let returnTo: string | undefined;
    try {
      returnTo = adminReturnPath(one(query.return_to));
      const binding = randomBytes(32).toString('base64url');
      const started = (await invoker.invoke(command('auth.oidc.start'), { store: one(query.store) ?? '', binding }, caller(request, reply))) as {
        authorization_url: string;
      };
      // Lax: the provider's redirect back is a top-level GET, which carries them.
      const secure = request.protocol === 'https' ? '; Secure' : '';
      const kept = (name: string, value: string) => `${name}=${value}; Path=/v1/auth/oidc; Max-Age=600; HttpOnly; SameSite=Lax${secure}`;
      reply.header('set-cookie', [
        kept(BINDING_COOKIE, binding),
        returnTo ? kept(RETURN_COOKIE, encodeURIComponent(returnTo)) : `${RETURN_COOKIE}=; Path=/v1/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax`,
      ]);
      return reply.header('cache-control', 'no-store').redirect(started.authorization_url, 302);
    } catch (error) {
      const refused = asAppError(error, reply.getHeader('x-request-id') as string, log);
      if (returnTo) return reply.header('cache-control', 'no-store').redirect(signInRefusedPath(refused), 303);
      return sendError(reply, refused);
    }
  });

  app.get('/v1/auth/oidc/callback', async (request, reply) => {
    const returnTo = keptReturnPath(cookieOf(request.headers.cookie, RETURN_COOKIE));
    const ended = [
      `${BINDING_COOKIE}=; Path=/v1/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax`,
      `${RETURN_COOKIE}=; Path=/v1/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax`,
    ];
    try {
      const query = request.query as Record<string, unknown>;
      const refused = one(query.error);
      if (refused) throw new AppError('unauthorized', `the identity provider refused the login: ${refused.slice(0, 200)}`);
      const code = one(query.code);
      const state = one(query.state);
      if (!code || !state) throw validationFailed('the callback needs code and state');
      const iss = one(query.iss);
      const binding = cookieOf(request.headers.cookie, BINDING_COOKIE);
      if (!binding) throw new AppError('unauthorized', 'this browser did not start the login: start again');
      const session = (await invoker.invoke(command('auth.oidc.callback'), { code, state, binding, ...(iss ? { iss } : {}) }, caller(request, reply))) as {
        token: string;
        expires_at: string;
      };
      reply.header('cache-control', 'no-store');
      if (!returnTo) return reply.header('set-cookie', ended[0]).send(session);
      // The admin's login: its session in the same cookie as the code sign-in's (a top-level navigation may set a SameSite=Strict cookie).
      return reply.header('set-cookie', [...ended, sessionFor(request, session)]).redirect(returnTo, 303);
    } catch (error) {
      const refused = asAppError(error, reply.getHeader('x-request-id') as string, log);
      if (returnTo) return reply.header('cache-control', 'no-store').header('set-cookie', ended).redirect(signInRefusedPath(refused), 303);
      return sendError(reply, refused);
    }
  });

  app.post('/v1/auth/session', async (request, reply) => {
    try {
      // Signing a browser in to a session of a foreign page's choosing is a forgery too.
      assertSameOrigin(request);
      if (request.body === null) throw validationFailed('the body must be a JSON object');
      // The subgraph's executor checked the result against the command's schema (sessionResult).
      const session = (await invoker.invoke(command('auth.login_code.verify'), request.body ?? {}, caller(request, reply))) as {
        token: string;
        expires_at: string;
      };
      const { token, ...answer } = session;
      return reply.header('cache-control', 'no-store').header('set-cookie', sessionFor(request, session)).send(answer);
    } catch (error) {
      return sendError(reply, asAppError(error, reply.getHeader('x-request-id') as string, log));
    }
  });

  app.delete('/v1/auth/session', async (request, reply) => {
    try {
      assertSameOrigin(request);
      const token = cookieOf(request.headers.cookie, SESSION_COOKIE);
      let ended: unknown = { session_id: null, logged_out: false };
      if (token) {
        try {
          ended = await invoker.invoke(command('auth.logout'), {}, { ...caller(request, reply), authorization: `Bearer ${token}` });
        } catch (error) {
          // A session that no longer works (expired, ended, revoked) is signed out already: signing out again succeeds.
          if (!(error instanceof AppError && error.kind === 'unauthorized')) throw error;
        }
      }
      return reply
        .header('cache-control', 'no-store')
        .header('set-cookie', sessionCookie(request, '', 0))
        .send(ended);
    } catch (error) {
      return sendError(reply, asAppError(error, reply.getHeader('x-request-id') as string, log));
    }
  });
}
