#!/usr/bin/env bash
# Build the single-file release binaries with `deno compile`.
#
# Usage:
#   scripts/build.sh [VERSION]          build dist/mcp-server-router-VERSION-linux-{amd64,arm64}
#                                       and dist/SHA256SUMS
#   scripts/build.sh --print-permissions
#                                       print the --allow-* flags compiled into the binary,
#                                       one per line (the tests run main.ts with exactly these)
#
# VERSION defaults to deno.json's "version" and must equal it: the binary reports
# deno.json's version (--version, MCP serverInfo), so a file named otherwise would
# lie. Change the version with scripts/release.sh.
#
# Environment:
#   TARGETS     architectures to build, separated by spaces or commas (default: "amd64 arm64")
#   OUT_DIR     where the binaries and SHA256SUMS go (default: dist)
#   DENORT_BIN  a local denort runtime to embed instead of downloading one from the
#               internet. It is used for the target of its own CPU architecture (read from
#               its ELF header); other targets download theirs.
#   DENO        the deno executable (default: deno)
#   TYPECHECK   "no" skips deno compile's type check (default: "yes"); for a caller
#               that has just run `deno check` on the same tree, as CI does
#
# Every runtime asset (Swagger UI and the like) is imported as a module (raw
# text and bytes imports), so `deno compile` embeds it and the binary needs
# nothing beside it. The
# subcommands' dynamic imports (sim, proxy, healthcheck) use literal
# specifiers, which `deno compile` follows, so no --include is needed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The permissions compiled into the binary, the least that every mode needs.
# The server, `sim`, `proxy` and `healthcheck` share one binary, so the set is
# their union. Paths and addresses are chosen by the user at run time, which is
# why net, read and write cannot be narrowed to a list here.
PERMISSIONS=(
  # SSH to routers at the addresses in the configuration; listening for the
  # HTTP transports, the REST proxy and the simulator; the healthcheck probe.
  --allow-net
  # ROUTER_* settings: main.ts reads the environment as a whole
  # (Deno.env.toObject), and the proxy passes its environment to its children.
  --allow-env
  # Inventory, private key, known_hosts and proxy configuration files.
  --allow-read
  # known_hosts (host-key-policy accept-new), the audit log, the simulator's
  # state file.
  --allow-write
  # Deno.uid() only: the container's inventory-file errors name the uid the
  # process runs as. No other system information is read.
  --allow-sys=uid
  # proxy: starts the configured MCP servers as child processes. Children are
  # not sandboxed by Deno; that is what the proxy is for.
  --allow-run
)
# Deliberately absent: --allow-ffi (no native code), --allow-import (every
# module is embedded at compile time), and every other --allow-sys kind.

if [[ "${1:-}" == "--print-permissions" ]]; then
  printf '%s\n' "${PERMISSIONS[@]}"
  exit 0
fi
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
if [[ $# -gt 1 ]]; then
  echo "build.sh: expected at most one argument (the version), got $#" >&2
  exit 2
fi

DENO="${DENO:-deno}"
OUT_DIR="${OUT_DIR:-dist}"
TARGETS="${TARGETS:-amd64 arm64}"

die() {
  echo "build.sh: $*" >&2
  exit 1
}

project_version="$("$DENO" eval --quiet \
  'console.log(JSON.parse(Deno.readTextFileSync("deno.json")).version)')"
version="${1:-$project_version}"
version="${version#v}"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  die "version \"$version\" is not X.Y.Z (semantic versioning)"
fi
if [[ "$version" != "$project_version" ]]; then
  die "version $version differs from deno.json's $project_version, which the binary reports; run scripts/release.sh $version first"
fi

# The CPU architecture of an ELF file: amd64, arm64 or unknown.
elf_arch() {
  local magic machine
  magic="$(od -An -tx1 -N4 "$1" | tr -d ' \n')"
  machine="$(od -An -tx1 -j18 -N2 "$1" | tr -d ' \n')"
  if [[ "$magic" != "7f454c46" ]]; then
    echo unknown
    return
  fi
  case "$machine" in
    3e00) echo amd64 ;;
    b700) echo arm64 ;;
    *) echo unknown ;;
  esac
}

denort_arch=""
if [[ -n "${DENORT_BIN:-}" ]]; then
  [[ -f "$DENORT_BIN" ]] || die "DENORT_BIN=$DENORT_BIN is not a file"
  denort_arch="$(elf_arch "$DENORT_BIN")"
  [[ "$denort_arch" != unknown ]] ||
    die "DENORT_BIN=$DENORT_BIN is not an x86_64 or aarch64 Linux executable"
fi

# bintrees (under prom-client, which serves /metrics) ships 2 MB of test data,
# test/perf/100k, on which `deno compile` 2.9.6 overflows its stack; the binary
# never reads it, so it is left out. The path is in Deno's npm cache.
npm_cache="$("$DENO" info --json | "$DENO" eval --quiet \
  'console.log(JSON.parse(await new Response(Deno.stdin.readable).text()).npmCache)')"
EXCLUDES=(--exclude "$npm_cache/registry.npmjs.org/bintrees/1.0.2/test")

case "${TYPECHECK:-yes}" in
  yes) CHECK=() ;;
  no) CHECK=(--no-check) ;;
  *) die "TYPECHECK=$TYPECHECK: expected yes or no" ;;
esac

mkdir -p "$OUT_DIR"
built=()
for arch in ${TARGETS//,/ }; do
  case "$arch" in
    amd64) triple=x86_64-unknown-linux-gnu ;;
    arm64) triple=aarch64-unknown-linux-gnu ;;
    *) die "unknown target \"$arch\" in TARGETS; expected amd64 or arm64" ;;
  esac
  name="mcp-server-router-$version-linux-$arch"
  echo "build.sh: compiling $name ($triple)" >&2
  runtime=()
  if [[ -n "$denort_arch" && "$denort_arch" == "$arch" ]]; then
    runtime=(env "DENORT_BIN=$DENORT_BIN")
  else
    if [[ -n "$denort_arch" ]]; then
      echo "build.sh: DENORT_BIN is a $denort_arch runtime; downloading the $arch one" >&2
    fi
    runtime=(env -u DENORT_BIN)
  fi
  # --frozen: build from deno.lock exactly, never re-resolve a dependency.
  # --unstable-raw-imports: Swagger UI's files are imported as text and bytes
  # (deno.json enables it too; the flag keeps the build independent of that).
  "${runtime[@]}" "$DENO" compile \
    --frozen \
    "${CHECK[@]}" \
    --unstable-raw-imports \
    --target "$triple" \
    --output "$OUT_DIR/$name" \
    "${EXCLUDES[@]}" \
    "${PERMISSIONS[@]}" \
    main.ts
  built+=("$name")
done

(cd "$OUT_DIR" && sha256sum "${built[@]}" >SHA256SUMS)
echo "build.sh: wrote $OUT_DIR/SHA256SUMS for: ${built[*]}" >&2
