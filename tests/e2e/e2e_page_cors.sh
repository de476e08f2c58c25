#!/usr/bin/env bash
# CORS in a real browser: a page served from another origin (a small static server of the test,
# tests/page_client/cors_test.js, on its own loopback port) calls atento-serve with fetch in
# headless Chromium. Without --cors-origin the browser blocks the calls; with
# --cors-origin http://127.0.0.1:PORT a page from that origin is answered (JSON requests after
# their preflight, form requests, /languages, /attention) and one from elsewhere is still
# blocked. Skipped (exit 77, saying why) without --cors-origin in atento-serve, without
# chromium, node/npm or puppeteer-core.
# $ATENTO_E2E_MODEL=DIR reuses a trained model instead of training one.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
if [ ! -x "$BUILD/atento-serve" ]; then
  echo "skipped: $BUILD has no atento-serve (configured with -DATENTO_SERVER=OFF)"; exit 77
fi
if ! "$BUILD/atento-serve" --help 2>&1 | grep -q -- "--cors-origin"; then
  echo "skipped: atento-serve --help lists no --cors-origin"; exit 77
fi
require_browser || exit 77
sample_model
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$WORK"' EXIT

# The page's port first: the allowed origin names it.
static_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
origin=http://127.0.0.1:$static_port
start_server_binary "$WORK/plain.err" "$BUILD/atento-serve" --model "$model" \
  || { fail "the server without --cors-origin does not start"; finish; exit 1; }
plain_url=$URL; pids+=("$server_pid")
start_server_binary "$WORK/cors.err" "$BUILD/atento-serve" --model "$model" --cors-origin "$origin" \
  || { fail "the server with --cors-origin $origin does not start"; finish; exit 1; }
cors_url=$URL; pids+=("$server_pid")
pass "two servers: $plain_url (no CORS), $cors_url (--cors-origin $origin)"

node_checks node "$PAGE_CLIENT/cors_test.js" "$CHROMIUM" "$static_port" "$plain_url" "$cors_url"

for p in "${pids[@]}"; do
  kill -TERM "$p"; wait "$p"; status=$?
  [ "$status" = 0 ] && pass "SIGTERM: server $p exits 0" || fail "SIGTERM: server $p: exit $status"
done
pids=()
finish
