# One image for every process; docker-compose picks the entry point.
FROM node:20-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY platform/package.json platform/
COPY gateway/package.json gateway/
COPY subgraphs/identity/package.json subgraphs/identity/
COPY subgraphs/catalog/package.json subgraphs/catalog/
COPY subgraphs/orders/package.json subgraphs/orders/
COPY subgraphs/content/package.json subgraphs/content/
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ENV NODE_ENV=production HOST=0.0.0.0
USER node
CMD ["npx", "tsx", "gateway/src/main.ts"]
