# Shared helpers of the end-to-end tests (sourced, not run). $1 of each test is the build dir.
set -uo pipefail
BUILD=$(cd "$1" && pwd)
WORK=$(mktemp -d /tmp/atento-e2e.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failures=0
checks=0

pass() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*"; }

# expect_exit CODE DESCRIPTION -- command...   (stderr kept in $WORK/stderr)
expect_exit() {
  local want=$1 what=$2; shift 3
  "$@" >"$WORK/stdout" 2>"$WORK/stderr"
  local got=$?
  if [ "$got" = "$want" ]; then pass "$what (exit $got)"
  else fail "$what: exit $got, expected $want"; sed 's/^/    /' "$WORK/stderr" | tail -5; fi
}

# expect_stderr PATTERN DESCRIPTION: the last command's stderr matches PATTERN (grep -E).
expect_stderr() {
  if grep -qE -- "$1" "$WORK/stderr"; then pass "$2"
  else fail "$2: stderr lacks /$1/"; sed 's/^/    /' "$WORK/stderr" | tail -5; fi
}

# json_get FILE EXPR: evaluates a Python expression over the JSON lines of FILE (as `events`).
json_get() {
  python3 -c "import json,sys; events=[json.loads(l) for l in open(sys.argv[1])]; print($2)" "$1"
}

# start_server_binary LOG SERVER ARGS...: starts SERVER --port 0 ARGS on a free loopback port,
# stderr to LOG; sets $server_pid and $URL from the address it logs.
start_server_binary() {
  local log=$1 server=$2 port; shift 2
  "$server" --port 0 "$@" 2>"$log" &
  server_pid=$!
  for _ in $(seq 1 600); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$log")
    [ -n "$port" ] && { URL=http://127.0.0.1:$port; return 0; }
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$log"; return 1
}

# check_output_kinds WHAT -- COMMAND...: runs COMMAND with the argument @OUT replaced by a
# FIFO, then (as root) by a private null device and a private full device (never the machine's
# own): the first two must be written in place and stay what they are; the full one must make
# the command exit 1 with an error naming it.
check_output_kinds() {
  local what=$1; shift 2
  local dir=$WORK/kinds
  rm -rf "$dir"; mkdir -p "$dir"; mkfifo "$dir/fifo"
  timeout 300 cat "$dir/fifo" >"$dir/from_fifo" &
  local reader=$!
  "${@//@OUT/$dir/fifo}" >/dev/null 2>"$WORK/stderr"
  local got=$?
  wait "$reader"
  if [ "$got" = 0 ] && [ -p "$dir/fifo" ] && [ -s "$dir/from_fifo" ]; then
    pass "$what: a FIFO is written in place"
  else fail "$what: FIFO: exit $got, fifo kept: $([ -p "$dir/fifo" ] && echo yes || echo no)"; fi
  if [ "$(id -u)" != 0 ] || ! mknod "$dir/null" c 1 3 2>/dev/null || ! mknod "$dir/full" c 1 7; then
    echo "skip: $what: device nodes need root"; return 0
  fi
  expect_exit 0 "$what: a null device is written" -- "${@//@OUT/$dir/null}"
  [ -c "$dir/null" ] && pass "$what: the null device node survives" \
    || fail "$what: the null device node was replaced"
  expect_exit 1 "$what: a full device is a write error" -- "${@//@OUT/$dir/full}"
  expect_stderr "cannot write $dir/full" "$what: the error names the full device"
  [ -c "$dir/full" ] && pass "$what: the full device node survives" \
    || fail "$what: the full device node was replaced"
}

# require_gloo: skips the test (exit 77) when $BUILD was built without Gloo.
require_gloo() {
  if grep -q "^Gloo_DIR:PATH=.*NOTFOUND" "$BUILD/CMakeCache.txt"; then
    echo "skipped: $BUILD was built without Gloo (apt-get install libgloo-dev)"; exit 77
  fi
}

# wait_exit PID SECONDS: the exit code, or 124 if still running after SECONDS (then killed).
wait_exit() {
  for _ in $(seq $(($2 * 10))); do
    kill -0 "$1" 2>/dev/null || { wait "$1"; return $?; }
    sleep 0.1
  done
  kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null; return 124
}

finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [ "$failures" -eq 0 ]
}

# ctest runs two tests at once on two cores: one thread each avoids OpenMP oversubscription.
export OMP_NUM_THREADS=1
SAMPLE_SETTINGS=(--set train.log_every_steps=10)

# sample_model: sets $model to $ATENTO_E2E_MODEL, or to a small model trained on the sample
# corpus into $WORK/model (15 epochs, as e2e_serve.sh trains); exits 1 if training fails.
sample_model() {
  model=${ATENTO_E2E_MODEL:-$WORK/model}
  [ -n "${ATENTO_E2E_MODEL:-}" ] && return 0
  "$BUILD/atento-train" --config configs/sample.json --out "$model" --set train.max_epochs=15 \
    "${SAMPLE_SETTINGS[@]}" >/dev/null 2>"$WORK/train.err" || { cat "$WORK/train.err"; exit 1; }
}

# serve_prologue: for the server's tests: skips (exit 77) a build without atento-serve, trains
# or reuses the sample model ($model), and kills the server ($server_pid) whatever happens.
serve_prologue() {
  if [ ! -x "$BUILD/atento-serve" ]; then
    echo "skipped: $BUILD has no atento-serve (configured with -DATENTO_SERVER=OFF)"; exit 77
  fi
  sample_model
  server_pid=""
  trap '[ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null; rm -rf "$WORK"' EXIT
}

# expect_json_error WANT DESCRIPTION: the last request's status ($code) is WANT and its body
# ($WORK/body) a JSON {"error": "…"}.
expect_json_error() {
  if [ "$code" = "$1" ] && python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["error"]
assert isinstance(e, str) and e' "$WORK/body" 2>/dev/null; then
    pass "$2 → $code {\"error\": …}"
  else
    fail "$2: status $code (expected $1), body $(head -c 200 "$WORK/body")"
  fi
}

# json_string TEXT: TEXT as a JSON string.
json_string() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }

# require_browser: returns 1, saying why, without Debian's chromium
# ($ATENTO_CHROMIUM overrides it), node and npm, or puppeteer-core; else sets $CHROMIUM and
# $PAGE_CLIENT, a copy of tests/page_client/ in the build tree with its node_modules (installed
# by `npm ci` from the pinned package-lock.json when missing or out of date).
require_browser() {
  CHROMIUM=${ATENTO_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
  if [ -z "$CHROMIUM" ] || [ ! -x "$CHROMIUM" ]; then
    echo "skipped: no chromium to drive (apt-get install chromium; scripts/setup.sh does)"
    return 1
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "skipped: node or npm is missing (scripts/setup.sh installs them)"
    return 1
  fi
  PAGE_CLIENT=$BUILD/page_client  # git-ignored; node_modules kept between runs
  mkdir -p "$PAGE_CLIENT"
  cp tests/page_client/*.js "$PAGE_CLIENT/"
  # ctest runs two tests at once: one npm ci at a time (the lock goes with this shell).
  exec {page_client_lock}>"$BUILD/page_client.lock"
  flock "$page_client_lock"
  if ! cmp -s tests/page_client/package-lock.json "$PAGE_CLIENT/package-lock.json" \
     || [ ! -d "$PAGE_CLIENT/node_modules/puppeteer-core" ]; then
    cp tests/page_client/package.json tests/page_client/package-lock.json "$PAGE_CLIENT/"
    # No browser download: puppeteer-core never fetches one; Debian's chromium is driven.
    if ! (cd "$PAGE_CLIENT" && npm ci --no-audit --no-fund --silent >"$WORK/npm.log" 2>&1); then
      rm -f "$PAGE_CLIENT/package-lock.json"  # tried again next time
      echo "skipped: npm ci could not install puppeteer-core (offline?):"; tail -3 "$WORK/npm.log"
      flock -u "$page_client_lock"
      return 1
    fi
  fi
  flock -u "$page_client_lock"
}

# node_checks COMMAND...: runs a node test script that prints "ok: …"/"FAIL: …" lines, counting
# each as a pass or a failure here; a script that exits non-zero without a FAIL line, or says
# nothing, fails too.
node_checks() {
  local line said=0 failed=0
  while IFS= read -r line; do
    case "$line" in
      ok:\ *) pass "${line#ok: }"; said=1 ;;
      FAIL:\ *) fail "${line#FAIL: }"; said=1; failed=1 ;;
      "exit status: 0") ;;
      "exit status: "*) [ "$failed" = 1 ] || fail "$1 $2: ${line}" ;;
      *) echo "    $line" ;;
    esac
  done < <("$@" 2>&1; echo "exit status: $?")
  [ "$said" = 1 ] || fail "$1 $2: no check ran"
}
