import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { codedTag, codingOf } from './encoding';

/**
 * The browser faces of the gateway: GraphiQL (the schema explorer) on `GET /graphql` for a browser,
 * and Swagger UI on `/v1/docs`. Their assets come from npm packages (graphiql 3 with React 18's UMD
 * builds, swagger-ui-dist) and are served from this process, so both work with no internet. Pages
 * run no inline script: the CSP allows scripts from this origin only.
 */

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  /** Of each encoding: the two bodies differ, so their tags do. */
  etag: string;
  gzipEtag: string;
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Both UIs set style attributes and inject <style> elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The gateway's pages (these and the admin's) send a Referer to their own origin only: their
 * addresses (a record's id, a search, a sign-in's query) reach no other site, through a link out or
 * a redirect to an OIDC provider. Not `no-referrer`: it would gain nothing (the Referer then goes to
 * this gateway alone), and under it a browser's non-CORS POST (a form's) carries `Origin: null`,
 * which the session routes' same-origin check refuses as foreign.
 */
export const REFERRER_POLICY = 'same-origin';

function asset(type: string, body: Buffer | string): Asset {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const tag = createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
  return { type, body: bytes, gzip: gzipSync(bytes), etag: `"${tag}"`, gzipEtag: codedTag(`"${tag}"`, 'gzip') };
}

/** A file of an installed package (by its folder: packages' `exports` need not list their browser builds). */
const fromPackage = (type: string, name: string, file: string) => asset(type, readFileSync(join(dirname(require.resolve(`${name}/package.json`)), file)));

/** The query a first visit shows: who the token is. */
const WELCOME_QUERY = `# Put your token in Headers below: {"Authorization": "Bearer <token>"}, then run (Ctrl-Enter).
# The Docs pane (the book icon) lists every query and mutation.
{
  read_internal_whoami {
    actor_id
    name
    tenant_id
    scopes
  }
}
`;

/** The back office's icon (a shopping bag), one file for every page of the gateway, and the admin front-end's later. */
export const FAVICON_FILE = join(__dirname, '..', 'favicon.svg');

const page = (title: string, css: string[], scripts: string[], body: string) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
${css.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')}
<style>html, body { height: 100%; margin: 0; }</style>
</head>
<body>
${body}
${scripts.map((src) => `<script src="${src}"></script>`).join('\n')}
</body>
</html>
`;

// A token given in the URL's fragment (`/graphql#token=…`, never sent to a server) fills the headers
// once and leaves the address bar. Nothing is kept in the browser's storage: GraphiQL's history
// would store every run's headers, token included, so its storage lives in the page's memory.
const GRAPHIQL_INIT = `(function () {
  var given = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (given) history.replaceState(null, '', location.pathname + location.search);
  var kept = new Map();
  var storage = {
    getItem: function (key) { return kept.has(key) ? kept.get(key) : null; },
    setItem: function (key, value) { kept.set(key, String(value)); },
    removeItem: function (key) { kept.delete(key); },
    clear: function () { kept.clear(); },
    key: function (i) { var keys = Array.from(kept.keys()); return i < keys.length ? keys[i] : null; },
    get length() { return kept.size; },
  };
  var props = {
    fetcher: GraphiQL.createFetcher({ url: location.origin + '/graphql' }),
    defaultQuery: ${JSON.stringify(WELCOME_QUERY)},
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: false,
    storage: storage,
  };
  // Without a token the headers start empty: the schema (public, as the OpenAPI document is) loads anonymously.
  if (given) props.headers = JSON.stringify({ Authorization: 'Bearer ' + decodeURIComponent(given[1]) }, null, 2);
  else props.defaultHeaders = '{}';
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, props));
})();
`;

const SWAGGER_INIT = `window.ui = SwaggerUIBundle({
  url: location.origin + '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // No call to validator.swagger.io: nothing leaves for the internet.
  validatorUrl: null,
});
`;

function loadAssets(): Map<string, Asset> {
  const favicon = asset('image/svg+xml', readFileSync(FAVICON_FILE));
  return new Map([
    ['/explorer/react.js', fromPackage('text/javascript', 'react', 'umd/react.production.min.js')],
    ['/explorer/react-dom.js', fromPackage('text/javascript', 'react-dom', 'umd/react-dom.production.min.js')],
    ['/explorer/graphiql.js', fromPackage('text/javascript', 'graphiql', 'graphiql.min.js')],
    ['/explorer/graphiql.css', fromPackage('text/css', 'graphiql', 'graphiql.min.css')],
    ['/explorer/init.js', asset('text/javascript', GRAPHIQL_INIT)],
    ['/v1/docs/swagger-ui.js', fromPackage('text/javascript', 'swagger-ui-dist', 'swagger-ui-bundle.js')],
    ['/v1/docs/swagger-ui.css', fromPackage('text/css', 'swagger-ui-dist', 'swagger-ui.css')],
    ['/v1/docs/init.js', asset('text/javascript', SWAGGER_INIT)],
    ['/favicon.svg', favicon],
    // What a browser asks for by itself, on a page that names no icon: the same SVG.
    ['/favicon.ico', favicon],
  ]);
}

const EXPLORER_PAGE = asset(
  'text/html; charset=utf-8',
  page(
    'Back office GraphQL explorer',
    ['/explorer/graphiql.css'],
    ['/explorer/react.js', '/explorer/react-dom.js', '/explorer/graphiql.js', '/explorer/init.js'],
    '<div id="graphiql" style="height: 100vh"></div>',
  ),
);
const DOCS_PAGE = asset(
  'text/html; charset=utf-8',
  page('Back office REST API', ['/v1/docs/swagger-ui.css'], ['/v1/docs/swagger-ui.js', '/v1/docs/init.js'], '<div id="swagger-ui"></div>'),
);

/** The assets are kept gzipped (made at start); brotli would cost the start its time. */
const GZIP = ['gzip'] as const;

function send(request: FastifyRequest, reply: FastifyReply, file: Asset, cache: string, vary = 'accept-encoding') {
  const gzip = codingOf(request, GZIP) === 'gzip';
  const etag = gzip ? file.gzipEtag : file.etag;
  reply
    .header('etag', etag)
    .header('cache-control', cache)
    .header('vary', vary)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', REFERRER_POLICY);
  if (file.type.startsWith('text/html')) reply.header('content-security-policy', CSP);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.type(file.type).send(gzip ? file.gzip : file.body);
}

/** A browser asking for /graphql (a navigation: it accepts HTML) gets the explorer; clients get GraphQL. */
const wantsPage = (request: FastifyRequest) => request.method === 'GET' && /\btext\/html\b/.test(String(request.headers.accept ?? ''));

export function registerExplorer(app: FastifyInstance): void {
  const assets = loadAssets();
  // Before Apollo's own GET /graphql, which would refuse a browser's navigation (CSRF prevention).
  app.addHook('onRequest', async (request, reply) => {
    // Vary: accept, as /graphql answers a browser and a client differently.
    if (request.url.split('?')[0] === '/graphql' && wantsPage(request)) return send(request, reply, EXPLORER_PAGE, 'no-cache', 'accept, accept-encoding');
  });
  app.get('/', async (_request, reply) => reply.redirect('/graphql'));
  app.get('/v1/docs', async (request, reply) => send(request, reply, DOCS_PAGE, 'no-cache'));
  for (const [path, file] of assets) {
    // Assets change only with the packages (a new version is a new deployment): cached an hour, revalidated by ETag.
    app.get(path, async (request, reply) => send(request, reply, file, 'public, max-age=3600'));
  }
}
