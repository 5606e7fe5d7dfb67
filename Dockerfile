# Ideal Self in a container: the site and the API in one Bun process (`npm start`), several of them behind a proxy
# on one PostgreSQL database (compose.yaml). Build: docker build -t ideal-self .

# 1. Dependencies and the site build (Bun comes from node_modules, as everywhere else in the project).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN node_modules/.bin/bun scripts/build.ts \
 && cp node_modules/bun/bin/bun.exe /usr/local/bin/bun \
 && npm prune --omit=dev --no-audit --no-fund

# 2. What runs: Bun, the production dependencies, the built site, the API, migrations and texts. No compiler, no
# npm, no sources of the site.
FROM debian:bookworm-slim AS app
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin idealself \
 && mkdir -p /data && chown idealself /data
COPY --from=build /usr/local/bin/bun /usr/local/bin/bun
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/api ./api
COPY --from=build /app/sql ./sql
COPY --from=build /app/locales ./locales
COPY --from=build /app/scripts/start.ts /app/scripts/build.ts /app/scripts/serveSite.ts ./scripts/
COPY --from=build /app/site/astro.config.mjs ./site/
COPY --from=build /app/site/dist ./site/dist
USER idealself
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4321 DATA_DIR=/data
EXPOSE 4321
VOLUME /data
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:4321/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["bun", "scripts/start.ts"]
