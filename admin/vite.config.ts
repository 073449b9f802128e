// The admin front-end's build (`npm run build` runs it after the server's; `npm run build:admin` alone):
// admin/ → admin/dist/, served by the gateway at /admin/. `npm run dev:admin` serves it with hot reload on
// :5173, passing /graphql and /v1 to a gateway on :4000 so the session cookie stays same-origin.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const admin = dirname(fileURLToPath(import.meta.url));
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:4000';

/** The trusted documents' manifest (sha256 → text, generated in src/gql/), emitted beside the bundle for the gateway's TRUSTED_DOCUMENTS. */
function trustedDocuments(): Plugin {
  return {
    name: 'backoffice-trusted-documents',
    apply: 'build',
    generateBundle() {
      const source = readFileSync(join(admin, 'src', 'gql', 'persisted-documents.json'), 'utf8');
      this.emitFile({ type: 'asset', fileName: 'persisted-documents.json', source });
    },
  };
}

export default defineConfig({
  root: admin,
  base: '/admin/',
  plugins: [react(), trustedDocuments()],
  build: {
    outDir: join(admin, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // Each screen is its own chunk (react-router's lazy routes, src/routes.tsx), and so is what only some
    // screens share (Rollup's own splitting): the first screen loads the entry and its own chunks only.
    // The manifest (.vite/manifest.json) is what scripts/build.mjs measures the budget with.
    manifest: true,
  },
  server: { port: 5173, strictPort: true, proxy: { '/graphql': gateway, '/v1': gateway } },
  preview: { port: 4173 },
});
