import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { AppError } from '@backoffice/platform';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { REFERRER_POLICY } from './explorer';
import { sendError } from './rest';

/**
 * The admin front-end at `/admin`: the files Vite built from `admin/` (base path `/admin/`), served as
 * they are by @fastify/static. The build is the workspace's own (`npm run build`), found where every
 * `__dirname` path of the gateway is: `admin/dist` from the sources, `dist/admin/dist` compiled.
 */
export const ADMIN_DIST = join(__dirname, '..', '..', 'admin', 'dist');

/**
 * The admin pages' policy: scripts, fonts, images and data from this origin only. Styles may also be
 * inline, as the explorer's: Mantine writes its theme's variables and AppShell's sizes per breakpoint
 * in <style> elements; a style carries no script, and React escapes whatever text a page shows.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Vite names every file under assets/ by a hash of its content: a changed file is a new name, so it is kept for ever. */
const HASHED = '/assets/';

const notBuilt = () => new AppError('not_found', 'the admin front-end is not built: run npm run build (it builds admin/ into admin/dist)');

/** index.html, for `/admin`, `/admin/` and any path of the app that is not a file (the app routes in the browser). */
function sendIndex(root: string, reply: FastifyReply) {
  if (!existsSync(join(root, 'index.html'))) return sendError(reply, notBuilt());
  return reply.sendFile('index.html');
}

export function registerAdminApp(app: FastifyInstance, root = ADMIN_DIST): void {
  app.register(
    async (admin) => {
      await admin.register(fastifyStatic, {
        root,
        // index.html is answered by sendIndex alone (a folder's index would skip the fallback's check).
        index: false,
        redirect: false,
        cacheControl: false,
        // Looked up per request: a build made while the gateway runs is served without a restart.
        wildcard: true,
        setHeaders(res, path) {
          const page = path.endsWith('.html');
          if (page) res.setHeader('content-security-policy', CSP);
          res.setHeader('referrer-policy', REFERRER_POLICY);
          res.setHeader('cache-control', !page && path.startsWith(join(root, HASHED)) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
      admin.get('/', async (_request, reply) => sendIndex(root, reply));
      // Returns nothing: a reply returned while its file still streams is awaited by Fastify (a 'close'
      // listener each time), and on a path of the app, after @fastify/static's own miss, that made 11:
      // Node's listener-leak warning on every page load.
      admin.setNotFoundHandler((request, reply) => {
        const path = request.url.split('?')[0];
        // A missing asset is a 404 (a page in its place would be read as a broken script); only a method that reads gets the app.
        if (path.startsWith(`/admin${HASHED}`) || (request.method !== 'GET' && request.method !== 'HEAD'))
          sendError(reply, existsSync(root) ? new AppError('not_found', `no file ${path}`) : notBuilt());
        else sendIndex(root, reply);
      });
    },
    { prefix: '/admin' },
  );
}
