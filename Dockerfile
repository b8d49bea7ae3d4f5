# syntax=docker/dockerfile:1
# vtpreflight as a container image (used by the `vtpreflight` service of docker-compose.yml).
#
#   docker build -t vtpreflight .
#   docker tag vtpreflight <registry>/vtpreflight:<tag> && docker push <registry>/vtpreflight:<tag>
#   docker run --rm -e VTPREFLIGHT_MYSQL_PASSWORD vtpreflight check --vtctld HOST:15999 --mysql-user USER
#
# Two stages: `build` compiles the TypeScript with the dev dependencies; the runtime stage installs the
# production dependencies only and copies the compiled dist/ and the protos/ that the gRPC client loads
# at run time (dist/src/sources/protos.js resolves ../../../protos). No credentials are baked in: pass
# them at run time (flags, VTPREFLIGHT_MYSQL_* environment variables or a config file).

# Node 20 is the version the project targets (package.json engines) and tests on.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY checks ./checks
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY protos ./protos
# The node image's unprivileged user `node`, by number (uid 1000, gid 1000): Kubernetes' runAsNonRoot can only
# verify a numeric user, a name is refused at pod start. vtpreflight needs no privileges and writes nothing but
# stdout (or an --output file on a mounted volume).
USER 1000:1000
ENTRYPOINT ["node", "/app/dist/src/cli.js"]
CMD ["--help"]
