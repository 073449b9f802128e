# One image for every process; docker-compose picks the entry point (node gateway/src/main.js,
# node subgraphs/<name>/src/main.js, node gateway/src/cli.js …). Built once: the TypeScript is
# compiled here (`npm run build`, tsconfig.build.json), the image runs plain JavaScript with `node`.

# The workspaces' manifests: what `npm ci` needs, so that a source change leaves the installs cached.
FROM node:20-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY platform/package.json platform/
COPY contracts/package.json contracts/
COPY gateway/package.json gateway/
COPY subgraphs/identity/package.json subgraphs/identity/
COPY subgraphs/catalog/package.json subgraphs/catalog/
COPY subgraphs/orders/package.json subgraphs/orders/
COPY subgraphs/content/package.json subgraphs/content/
COPY admin/package.json admin/

# Production dependencies only: the runtime's node_modules (with the @backoffice/* workspace links).
# --ignore-scripts: the root's `prepare` (npm run build) needs the sources and TypeScript, absent here;
# the build stage runs it explicitly, and no runtime dependency needs an install script.
FROM manifests AS deps
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts

# Every dependency (typescript, @types/*), the sources, and the compile into dist/.
FROM manifests AS build
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json supergraph.graphql ./
COPY scripts/build.mjs scripts/build-inputs.mjs scripts/
COPY platform/src platform/src
COPY contracts/src contracts/src
COPY gateway/src gateway/src
COPY gateway/surfaces.json gateway/favicon.svg gateway/
# The CLI calls the system through the SDK's sources (compiled with it).
COPY sdk/src sdk/src
COPY subgraphs subgraphs
# The admin front-end, built by Vite into admin/dist/ (its typed documents are committed in admin/src/gql/).
COPY scripts/admin-budget.mjs scripts/
COPY admin admin
RUN npm run build

# What runs: node_modules for production and the compiled packages where the sources were
# (dist/gateway/src/main.js becomes /app/gateway/src/main.js), so node_modules' @backoffice/* links
# lead to them and their package.json "main" is src/index.js. No TypeScript, no compiler at run time.
FROM node:20-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist/supergraph.graphql ./
COPY --from=build /app/dist/platform platform
COPY --from=build /app/dist/contracts contracts
COPY --from=build /app/dist/gateway gateway
COPY --from=build /app/dist/sdk sdk
COPY --from=build /app/dist/subgraphs subgraphs
# The admin front-end's static files (index.html, assets/, persisted-documents.json for TRUSTED_DOCUMENTS).
COPY --from=build /app/admin/dist admin/dist
# DATA_DIR (./.data): .eml files when no SMTP is configured, keys generated when not given.
RUN mkdir -p .data && chown node:node .data
USER node
EXPOSE 4000 4001 4002 4003 4004
CMD ["node", "gateway/src/main.js"]
