#!/usr/bin/env bash
# Cut a release: set version X.Y.Z everywhere, commit, and tag vX.Y.Z.
#
# Usage: scripts/release.sh X.Y.Z[-PRERELEASE]
#
# deno.json's "version" is the one version source: --version and the MCP
# serverInfo read it at run time. The files that cannot read it carry a copy,
# which this script rewrites and then checks:
#   deno.json        "version"
#   server.json      "version" and the OCI image tag in "identifier"
#   smithery.yaml    the version in its header comment
#   Dockerfile       ARG VERSION default (the image labels)
#   docs/install.md  VERSION=... in the download commands
#
# It refuses a dirty working tree, a version that is not semantic versioning,
# the current version, and an existing tag. It does not push: pushing the tag
# starts .github/workflows/release.yml.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() {
  echo "release.sh: $*" >&2
  exit 1
}

[[ $# -eq 1 ]] || die "usage: scripts/release.sh X.Y.Z"
version="${1#v}"
semver='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$'
[[ "$version" =~ $semver ]] ||
  die "\"$1\" is not a semantic version X.Y.Z (or X.Y.Z-rc.1)"

git rev-parse --is-inside-work-tree >/dev/null 2>&1 || die "not inside a git work tree"
if [[ -n "$(git status --porcelain)" ]]; then
  die "the working tree has uncommitted changes; commit or remove them first (git status)"
fi
if git rev-parse -q --verify "refs/tags/v$version" >/dev/null; then
  die "tag v$version already exists"
fi

current="$(sed -nE 's/^  "version": "([^"]*)",?$/\1/p' deno.json | head -n 1)"
[[ -n "$current" ]] || die "deno.json has no top-level \"version\""
[[ "$current" != "$version" ]] || die "deno.json is already at $version"

# Each edit names the one line it changes; a pattern that matches nothing
# leaves the file as it was, which the check below catches.
v="$version"
sed -i -E "s/^(  \"version\": \")[^\"]*(\",?)$/\1$v\2/" deno.json
sed -i -E "s/^(  \"version\": \")[^\"]*(\",?)$/\1$v\2/" server.json
sed -i -E "s#(\"identifier\": \"ghcr\.io/[^\"]+/mcp-server-router:)[^\"]*(\")#\1$v\2#" server.json
sed -i -E "s/^(# mcp-server-router )[^ ]+( )/\1$v\2/" smithery.yaml
sed -i -E "s/^(ARG VERSION=).*$/\1$v/" Dockerfile
sed -i -E "s/^(VERSION=)[0-9][^ ]*$/\1$v/" docs/install.md

check() { # file, fixed string that must now be there
  grep -qF -- "$2" "$1" || die "$1 was not updated to $version (expected: $2)"
}
check deno.json "\"version\": \"$v\""
check server.json "\"version\": \"$v\""
check server.json "/mcp-server-router:$v\""
check smithery.yaml "# mcp-server-router $v "
check Dockerfile "ARG VERSION=$v"
check docs/install.md "VERSION=$v"
if grep -qF -- "$current" Dockerfile server.json smithery.yaml; then
  die "the old version $current is still in: $(grep -lF -- "$current" Dockerfile server.json smithery.yaml | tr '\n' ' ')"
fi

git add deno.json server.json smithery.yaml Dockerfile docs/install.md
git commit -q -m "release: v$version"
git tag -a "v$version" -m "mcp-server-router $version"
echo "release.sh: committed and tagged v$version ($current -> $version)."
echo "release.sh: publish with: git push origin HEAD \"v$version\""
