#!/usr/bin/env bash
# The official MCP conformance suite against this server over streamable-http,
# with the embedded simulated router (--simulate). Exits non-zero if the server
# does not start or any scenario fails.
#
#   bash scripts/conformance.sh            # the scenarios below
#   CONFORMANCE_PORT=18080 bash scripts/conformance.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE="npm:@modelcontextprotocol/conformance@0.1.16"
# The scenarios for features this server has. The others test the suite's
# own fixture tools, prompts and resources (test_simple_text, test://static-text,
# test_simple_prompt...) or features it lacks; docs/http.md lists each with why.
SCENARIOS=(
  server-initialize
  ping
  logging-set-level
  tools-list
  tools-call-error
  resources-list
  prompts-list
  completion-complete
  dns-rebinding-protection
  server-sse-multiple-streams
)
PORT="${CONFORMANCE_PORT:-$(deno eval 'const l = Deno.listen({ hostname: "127.0.0.1", port: 0 }); console.log(l.addr.port); l.close();')}"
LOG="$(mktemp)"

deno run --allow-all main.ts --simulate --mcp.transport streamable-http \
  --mcp.host 127.0.0.1 --mcp.port "$PORT" 2>"$LOG" &
PID=$!
cleanup() {
  kill -TERM "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  rm -f "$LOG"
}
trap cleanup EXIT

healthy() {
  if command -v curl >/dev/null; then
    curl -fsS -o /dev/null "http://127.0.0.1:$PORT/health" 2>/dev/null
  else
    deno run --allow-all main.ts healthcheck --url "http://127.0.0.1:$PORT/health" >/dev/null 2>&1
  fi
}
for _ in $(seq 1 300); do
  healthy && break
  if ! kill -0 "$PID" 2>/dev/null; then
    echo "conformance: the server exited before answering /health:" >&2
    cat "$LOG" >&2
    exit 1
  fi
  sleep 0.2
done
healthy || { echo "conformance: no answer on /health after 60 s" >&2; cat "$LOG" >&2; exit 1; }

failed=()
for scenario in "${SCENARIOS[@]}"; do
  out="$(deno run --allow-all "$SUITE" server --url "http://localhost:$PORT/mcp" \
    --scenario "$scenario" 2>&1)" && rc=0 || rc=$?
  if [[ $rc -ne 0 ]] || ! grep -q ", 0 failed" <<<"$out"; then
    failed+=("$scenario")
    echo "$out"
    echo "conformance: $scenario FAILED" >&2
  else
    echo "conformance: $scenario passed"
  fi
done

if ((${#failed[@]} > 0)); then
  echo "conformance: ${#failed[@]} scenario(s) failed: ${failed[*]}" >&2
  exit 1
fi
echo "conformance: all ${#SCENARIOS[@]} scenarios passed"
