import { randomBytes } from 'node:crypto';
import { present, asAppError, validationFailed, AppError } from '@backoffice/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateHeaders } from '@backoffice/platform';
import type { Caller, Invoker } from './invoker';
import { sendError } from './rest';
import { COMMANDS } from './subgraphs';

/**
 * The browser's side of an operator's OIDC login, over the public commands auth.oidc.start and
 * auth.oidc.callback: `GET /v1/auth/oidc/start?store=<handle>` redirects to the provider;
 * `GET /v1/auth/oidc/callback` (the redirect URI registered with the provider) answers the session
 * as JSON, like auth.login_code.verify. The redirect URI is OIDC_REDIRECT_URI. The start sets a
 * cookie binding the attempt to this browser; the callback needs it, so a code and state sent to
 * anyone else (or planted in a victim's browser) are worth nothing.
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

  app.get('/v1/auth/oidc/start', async (request, reply) => {
    try {
      const query = request.query as Record<string, unknown>;
      const binding = randomBytes(32).toString('base64url');
      const started = (await invoker.invoke(command('auth.oidc.start'), { store: one(query.store) ?? '', binding }, caller(request, reply))) as {
        authorization_url: string;
      };
      // Lax: the provider's redirect back is a top-level GET, which carries it.
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('set-cookie', `${BINDING_COOKIE}=${binding}; Path=/v1/auth/oidc; Max-Age=600; HttpOnly; SameSite=Lax${secure}`);
      return reply.header('cache-control', 'no-store').redirect(started.authorization_url, 302);
    } catch (error) {
      return sendError(reply, asAppError(error, reply.getHeader('x-request-id') as string, log));
    }
  });

  app.get('/v1/auth/oidc/callback', async (request, reply) => {
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
      const session = await invoker.invoke(command('auth.oidc.callback'), { code, state, binding, ...(iss ? { iss } : {}) }, caller(request, reply));
      return reply
        .header('cache-control', 'no-store')
        .header('set-cookie', `${BINDING_COOKIE}=; Path=/v1/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax`)
        .send(session);
    } catch (error) {
      return sendError(reply, asAppError(error, reply.getHeader('x-request-id') as string, log));
    }
  });
}

/** One cookie's value from a Cookie header. */
function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
