# syntax=docker/dockerfile:1
#
# mcp-server-router as a distroless container image, for linux/amd64 and
# linux/arm64:
#
#   docker buildx build --platform linux/amd64,linux/arm64 --build-arg VERSION=X.Y.Z .
#
# The build stage runs on the build machine's own platform and cross-compiles
# for TARGETARCH with `deno compile --target`, so no emulation is needed. The
# runtime stage holds the one binary and nothing else: no shell, no package
# manager, no curl. The container's entrypoint rules (default router
# 192.168.88.1, inventory-file errors that explain `-v`) live in the binary
# and are switched on by ROUTER_CONTAINER=1.

# Kept equal to deno.json's "version" by scripts/release.sh (and checked by
# tests/distribution_version.test.ts); the release workflow passes it too.
ARG VERSION=0.1.0

FROM --platform=$BUILDPLATFORM denoland/deno:2.9.6 AS build
ARG TARGETARCH
ARG VERSION
WORKDIR /src
COPY deno.json deno.lock main.ts ./
COPY lib ./lib
COPY scripts/build.sh ./scripts/build.sh
# build.sh holds the compile flags (least-privilege permissions) for both the
# release binaries and this image.
RUN TARGETS="$TARGETARCH" OUT_DIR=/out bash scripts/build.sh "$VERSION" \
 && mv "/out/mcp-server-router-$VERSION-linux-$TARGETARCH" /out/mcp-server-router \
 && mkdir -p -m 0750 /out/rootfs/state

FROM gcr.io/distroless/cc-debian12:nonroot
ARG VERSION
LABEL org.opencontainers.image.title="mcp-server-router" \
      org.opencontainers.image.description="MCP server for MikroTik RouterOS routers over SSH" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.source="https://github.com/mcp-server-router/mcp-server-router" \
      org.opencontainers.image.documentation="https://github.com/mcp-server-router/mcp-server-router/blob/main/docs/install.md" \
      io.modelcontextprotocol.server.name="io.github.mcp-server-router/mcp-server-router"
COPY --from=build /out/mcp-server-router /usr/local/bin/mcp-server-router
# /state holds what the server writes (known_hosts, snapshots, an audit log). It belongs to
# the nonroot user, so a named volume mounted there starts out writable:
#   -v mcp-router-state:/state
# (copying rootfs/ copies the state directory itself, so --chown applies to it)
COPY --from=build --chown=65532:65532 /out/rootfs/ /
# Configuration files are mounted here, read-only:
#   -v "$PWD/inventory.yaml:/config/inventory.yaml:ro" -e ROUTER_INVENTORY_FILE=/config/inventory.yaml
WORKDIR /config
# The image is an HTTP service by default (streamable-http on port 8000, which
# the health check probes); MCP clients that spawn it over stdio set
# ROUTER_MCP__TRANSPORT=stdio, as server.json and smithery.yaml do.
ENV ROUTER_CONTAINER=1 \
    ROUTER_MCP__TRANSPORT=streamable-http \
    ROUTER_MCP__PORT=8000 \
    ROUTER_KNOWN_HOSTS=/state/known_hosts \
    ROUTER_STATE_DIR=/state
EXPOSE 8000
# uid/gid 65532 ("nonroot" in distroless), numeric so that runAsNonRoot checks pass.
USER 65532:65532
HEALTHCHECK --interval=30s --timeout=10s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/mcp-server-router", "healthcheck", "--url", "http://127.0.0.1:8000/health"]
ENTRYPOINT ["/usr/local/bin/mcp-server-router"]
