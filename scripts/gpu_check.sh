#!/usr/bin/env bash
# The checks that need an NVIDIA GPU and a CUDA LibTorch, in one run:
#   configure (the README's GPU line) → build → unit and end-to-end tests (the model's device
#   tests run on CUDA) → pinpoint the crash after the second validation → train
#   configs/fast.json and configs/base.json on CUDA for a bounded time → translate and evaluate
#   on CUDA and on the CPU → bf16 → training tokens/s beside the PyTorch peer's on the book
#   configuration, with peak GPU memory, and with its steps as CUDA graphs (train.cuda_graphs).
#
# usage: scripts/gpu_check.sh --libtorch DIR [--deps DIR] [--zip spa-eng.zip] [--peer ref_torch.py]
#                             [--minutes N] [--configs "fast base"] [--build DIR] [--device cuda:N] [--skip-ctest]
#                             [--dry-run]
#   --libtorch  unpacked upstream LibTorch with CUDA (the folder holding share/cmake/Torch)
#   --deps      SentencePiece, CLI11 and nlohmann_json carried from Debian (include/, lib/,
#               share/cmake/, lib/pkgconfig/); not needed where they are installed
#   --zip       the spa-eng corpus zip (else runs/data/spa-eng.tsv must exist)
#   --peer      the PyTorch peer script (ref_torch.py); its comparison is skipped when absent
#   --minutes   training time per configuration (default 5)
#   --configs   the configurations trained, translated and evaluated in step 5 (default "fast base")
#   --skip-ctest  run only the model's device tests, not the whole ctest suite (short leases)
#   --dry-run   print the plan and the commands, run nothing (works without a GPU)
# Exit: 0 every check passed, 1 a check failed, 2 usage error, 3 no CUDA device here.
set -uo pipefail
cd "$(dirname "$0")/.."

LIBTORCH="" DEPS="" ZIP="" PEER="" MINUTES=5 BUILD=build-gpu DEVICE=cuda DRY=0 CTEST=1 CONFIGS="fast base"
usage() { sed -n '2,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --libtorch) LIBTORCH=${2:?}; shift 2 ;;
    --deps) DEPS=${2:?}; shift 2 ;;
    --zip) ZIP=${2:?}; shift 2 ;;
    --peer) PEER=${2:?}; shift 2 ;;
    --minutes) MINUTES=${2:?}; shift 2 ;;
    --build) BUILD=${2:?}; shift 2 ;;
    --device) DEVICE=${2:?}; shift 2 ;;
    --configs) CONFIGS=${2?}; shift 2 ;;
    --skip-ctest) CTEST=0; shift ;;
    --dry-run) DRY=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
if [ -z "$LIBTORCH" ] && [ "$DRY" = 0 ]; then
  echo "error: --libtorch DIR is required (an upstream LibTorch with CUDA)" >&2; exit 2
fi
case "$MINUTES" in ''|*[!0-9.]*) echo "error: --minutes expects a number, got '$MINUTES'" >&2; exit 2 ;; esac

LOG=$BUILD/gpu_check
failures=0
summary=()
note() { echo "== $*"; }
ok() {
  local what="$*"
  if [ "$DRY" = 1 ]; then summary+=("plan  ${what%%:*}"); else summary+=("ok    $what"); echo "ok: $what"; fi
}
bad() { summary+=("FAIL  $*"); failures=$((failures + 1)); echo "FAIL: $*"; }
# run NAME -- command...: runs (or, with --dry-run, prints) a command, its output in $LOG/NAME.log.
run() {
  local name=$1; shift 2
  if [ "$DRY" = 1 ]; then printf '[dry-run] %s:' "$name"; printf ' %q' "$@"; echo; return 0; fi
  "$@" >"$LOG/$name.log" 2>&1
}
# json_last FILE EVENT KEY: KEY of the last EVENT line of a JSON-lines file.
json_last() {
  python3 -c "import json,sys
v=[json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
v=[e[sys.argv[3]] for e in v if e.get('event')==sys.argv[2] and sys.argv[3] in e]
print(v[-1] if v else 'n/a')" "$@" 2>/dev/null || echo n/a
}
# Peak GPU memory (MiB) over a command: nvidia-smi sampled every 200 ms in the background.
with_peak_memory() {
  local name=$1; shift 2
  if [ "$DRY" = 1 ]; then run "$name" -- "$@"; return 0; fi
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$LOG/$name.mem" &
  local sampler=$!
  run "$name" -- "$@"
  local code=$?
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
  echo "$(sort -n "$LOG/$name.mem" | tail -1) MiB" >"$LOG/$name.peak"
  return $code
}

# --- 0. a CUDA device? ---------------------------------------------------------------------
if [ "$DRY" = 0 ]; then
  if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpu_check: no CUDA device here (nvidia-smi missing or finds no GPU): nothing to check." >&2
    echo "gpu_check: run it on a GPU machine, or with --dry-run to see the plan." >&2
    exit 3
  fi
  mkdir -p "$LOG"
  nvidia-smi -L
else
  note "dry run: the commands a GPU machine would run"
fi

# --- 1. configure and build -----------------------------------------------------------------
prefix="$LIBTORCH${DEPS:+;$DEPS}"
export PKG_CONFIG_PATH="${DEPS:+$DEPS/lib/pkgconfig:}${PKG_CONFIG_PATH:-}"
export LD_LIBRARY_PATH="${DEPS:+$DEPS/lib:}${LIBTORCH:+$LIBTORCH/lib:}${LD_LIBRARY_PATH:-}"
note "configure and build into $BUILD"
# Without the sanitizer copies of the code (CI runs those on CPU; the device's time is short).
if run configure -- cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DATENTO_SERVER=OFF -DATENTO_JEMALLOC=OFF \
     -DATENTO_SANITIZE_TESTS=OFF "-DCMAKE_PREFIX_PATH=$prefix" -DATENTO_SPM_ISOLATION=AUTO \
   && run build -- cmake --build "$BUILD" -j "$(nproc)"; then
  ok "configure and build"
  [ "$DRY" = 1 ] || grep -E "SentencePiece isolation|data-parallel backends" "$LOG/configure.log"
else
  bad "configure or build (see $LOG/configure.log, $LOG/build.log)"; [ "$DRY" = 1 ] || exit 1
fi

# --- 2. tests: the model's device tests must run on CUDA, not skip ---------------------------
note "unit and end-to-end tests"
if [ "$CTEST" = 0 ]; then note "ctest skipped (--skip-ctest)"
elif run ctest -- ctest --test-dir "$BUILD" --output-on-failure; then ok "ctest"
else bad "ctest (see $LOG/ctest.log)"; fi
if run devices -- "$BUILD/atento_tests_model" --gtest_filter='*Devices*'; then
  if [ "$DRY" = 0 ] && grep -q "no CUDA device" "$LOG/devices.log"; then
    bad "device tests skipped CUDA: this LibTorch sees no GPU"
  else ok "model invariants and CPU-vs-CUDA agreement on CUDA"; fi
else bad "model device tests (see $LOG/devices.log)"; fi
if run graphs -- "$BUILD/atento_tests_train" --gtest_filter='StepGraphs.*'; then
  if [ "$DRY" = 0 ] && grep -q "needs a CUDA device" "$LOG/graphs.log"; then
    bad "the CUDA graph test skipped: no CUDA device or a LibTorch without CUDA"
  else ok "training steps captured as CUDA graphs give the eager steps' weights"; fi
else bad "CUDA graph tests (see $LOG/graphs.log)"; fi
if run decode_graphs -- "$BUILD/atento_tests_translate" --gtest_filter='GreedyGraphs.*'; then
  if [ "$DRY" = 0 ] && grep -q "needs a CUDA device" "$LOG/decode_graphs.log"; then
    bad "the CUDA graph decoding test skipped: no CUDA device or a LibTorch without CUDA"
  else ok "greedy decoding steps captured as CUDA graphs give the eager hypotheses"; fi
else bad "CUDA graph decoding tests (see $LOG/decode_graphs.log)"; fi

# --- 3. data ---------------------------------------------------------------------------------
if [ -n "$ZIP" ]; then run data -- scripts/get_data.sh "$ZIP" || bad "get_data.sh $ZIP"; fi
if [ "$DRY" = 0 ] && [ ! -s runs/data/spa-eng.tsv ]; then
  bad "no corpus: pass --zip spa-eng.zip"; printf '%s\n' "${summary[@]}"; exit 1
fi

# --- 4. the crash after the second validation --------------------------------------------------
# Five validations on fast.json (every 40 steps). If the plain run crashes, the variants say
# where: a fault handler that prints the faulting address, the instruction pointer and the
# library it lies in (the earlier backtrace had no frames: a jump to a bad address or a frame
# without unwind data); gdb's view of every thread; the host heap checked by glibc; the CUDA
# side under compute-sanitizer; and the old heap tuning (mallopt) forced back on.
note "crash after the second validation (fast.json, validation every 40 steps)"
CRASH=(--config configs/fast.json --device "$DEVICE" --set train.eval_every_steps=40
       --set train.max_steps=200 --set train.time_budget_minutes=0 --set train.log_every_steps=20)
write_fault_handler() {
cat >"$LOG/fault.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
static char stack[1 << 16];
static void where(const char* what, void* pc) {
  Dl_info info; memset(&info, 0, sizeof info);
  dladdr(pc, &info);
  fprintf(stderr, "fault: %s %p in %s (%s+%#lx)\n", what, pc, info.dli_fname ? info.dli_fname : "?",
          info.dli_sname ? info.dli_sname : "?",
          (unsigned long)((char*)pc - (char*)(info.dli_saddr ? info.dli_saddr : info.dli_fbase)));
}
static void on_fault(int sig, siginfo_t* si, void* ctx) {
  ucontext_t* uc = (ucontext_t*)ctx;
  void* rip = (void*)uc->uc_mcontext.gregs[REG_RIP];
  void** rsp = (void**)uc->uc_mcontext.gregs[REG_RSP];
  fprintf(stderr, "fault: signal %d, address %p, thread %ld (main %d)\n", sig, si->si_addr,
          (long)syscall(SYS_gettid), getpid());
  where("rip", rip);
  where("[rsp] (return address if rip is bad)", rsp ? rsp[0] : 0);
  signal(sig, SIG_DFL); raise(sig);
}
__attribute__((constructor)) static void install(void) {
  stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack};
  sigaltstack(&ss, 0);
  struct sigaction sa; memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault; sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGSEGV, &sa, 0); sigaction(SIGBUS, &sa, 0); sigaction(SIGILL, &sa, 0);
}
C
}
rm -rf runs/gpu_crash
if run crash_plain -- "$BUILD/atento-train" "${CRASH[@]}" --out runs/gpu_crash; then
  ok "fast.json on CUDA survives 5 validations"
else
  bad "fast.json on CUDA: exit $? (see $LOG/crash_plain.log)"
  if [ "$DRY" = 0 ] && write_fault_handler && gcc -shared -fPIC -o "$LOG/fault.so" "$LOG/fault.c" -ldl; then
    rm -rf runs/gpu_crash
    LD_PRELOAD="$LOG/fault.so" run crash_fault -- "$BUILD/atento-train" "${CRASH[@]}" \
      --out runs/gpu_crash
    grep "^fault:" "$LOG/crash_fault.log"
  fi
  if command -v gdb >/dev/null; then
    rm -rf runs/gpu_crash
    run crash_gdb -- gdb -batch -ex run -ex bt -ex 'info registers rip rsp' \
      -ex 'thread apply all bt 15' --args "$BUILD/atento-train" "${CRASH[@]}" --out runs/gpu_crash
  fi
  malloc_debug=$(ldconfig -p 2>/dev/null | awk '/libc_malloc_debug/ {print $NF; exit}')
  if [ -n "$malloc_debug" ]; then
    rm -rf runs/gpu_crash
    LD_PRELOAD=$malloc_debug MALLOC_CHECK_=3 run crash_malloc_check -- "$BUILD/atento-train" \
      "${CRASH[@]}" --out runs/gpu_crash && ok "passes with glibc's heap checks (timing?)"
  fi
  if command -v compute-sanitizer >/dev/null; then
    rm -rf runs/gpu_crash
    run crash_sanitizer -- timeout 180 compute-sanitizer --tool memcheck --print-limit 20 \
      "$BUILD/atento-train" "${CRASH[@]}" --set train.max_steps=100 --out runs/gpu_crash
  fi
fi
rm -rf runs/gpu_crash
if ATENTO_MALLOPT=on run crash_mallopt -- "$BUILD/atento-train" "${CRASH[@]}" \
     --out runs/gpu_crash; then
  ok "fast.json on CUDA with the CPU heap tuning forced on (ATENTO_MALLOPT=on)"
else
  bad "fast.json on CUDA crashes with ATENTO_MALLOPT=on: the mallopt calls are implicated"
fi

# --- 5. bounded training, translation, evaluation ----------------------------------------------
for cfg in $CONFIGS; do
  out=runs/gpu_$cfg
  rm -rf "$out"
  note "train configs/$cfg.json on $DEVICE for $MINUTES min"
  if with_peak_memory "train_$cfg" -- "$BUILD/atento-train" --config "configs/$cfg.json" \
       --device "$DEVICE" --out "$out" --set "train.time_budget_minutes=$MINUTES" \
       --set train.max_epochs=0 --set train.max_steps=0; then
    ok "train $cfg: $(json_last "$out/log.jsonl" train tokens_per_s) target tokens/s," \
       "valid accuracy $(json_last "$out/log.jsonl" valid next_word_accuracy)," \
       "peak GPU memory $(cat "$LOG/train_$cfg.peak" 2>/dev/null)"
  else
    bad "train $cfg (see $LOG/train_$cfg.log)"; continue
  fi
  for dev in "$DEVICE" cpu; do
    run "translate_${cfg}_$dev" -- "$BUILD/atento-translate" --model "$out" --device "$dev" \
      --input "$out/test.tsv" --output "$LOG/hyps_${cfg}_$dev.txt" \
      && ok "translate $cfg on $dev" || bad "translate $cfg on $dev"
  done
  # Greedy decoding as CUDA graphs (translate.cuda_graphs) against continuous batching.
  for mode in eager graphs; do
    flags=(--beam 1)
    [ "$mode" = graphs ] && flags+=(--set translate.cuda_graphs=true)
    run "greedy_${cfg}_$mode" -- "$BUILD/atento-translate" --model "$out" --device "$DEVICE" \
      --input "$out/test.tsv" --output "$LOG/greedy_${cfg}_$mode.txt" "${flags[@]}" \
      || bad "greedy translation of $cfg, $mode (see $LOG/greedy_${cfg}_$mode.log)"
  done
  if [ "$DRY" = 0 ]; then
    note "greedy $cfg on $DEVICE: $(grep -h 'sentences/s' "$LOG/greedy_${cfg}_eager.log" | tail -1)"
    note "the same as CUDA graphs: $(grep -h 'sentences/s' "$LOG/greedy_${cfg}_graphs.log" | tail -1);" \
      "$(diff "$LOG/greedy_${cfg}_eager.txt" "$LOG/greedy_${cfg}_graphs.txt" | grep -c '^<') lines differ"
  fi
  if run "eval_$cfg" -- "$BUILD/atento-eval" --model "$out" --pairs "$out/test.tsv" --json \
       --device "$DEVICE"; then ok "eval $cfg on $DEVICE: $(tail -1 "$LOG/eval_$cfg.log" 2>/dev/null)"
  else bad "eval $cfg"; fi
  if [ "$DRY" = 0 ] && ! cmp -s "$LOG/hyps_${cfg}_$DEVICE.txt" "$LOG/hyps_${cfg}_cpu.txt"; then
    echo "note: $cfg translations differ between $DEVICE and cpu on" \
      "$(diff "$LOG/hyps_${cfg}_$DEVICE.txt" "$LOG/hyps_${cfg}_cpu.txt" | grep -c '^<') lines" \
      "(rounding; expected to be few)"
  fi
done
rm -rf runs/gpu_bf16
if run train_bf16 -- "$BUILD/atento-train" --config configs/fast.json --device "$DEVICE" \
     --out runs/gpu_bf16 --set train.precision=bf16 --set train.max_steps=400 \
     --set train.eval_every_steps=200 --set train.time_budget_minutes=0; then
  ok "fast.json in bf16: $(json_last runs/gpu_bf16/log.jsonl train tokens_per_s) tokens/s," \
     "accuracy $(json_last runs/gpu_bf16/log.jsonl valid next_word_accuracy) at step 400"
else bad "bf16 training (see $LOG/train_bf16.log)"; fi
rm -rf runs/gpu_resume
run resume_cpu -- bash -c "'$BUILD/atento-train' --config configs/fast.json --device '$DEVICE' \
  --out runs/gpu_resume --set train.max_steps=100 --set train.eval_every_steps=50 && \
  '$BUILD/atento-train' --config configs/fast.json --device cpu --out runs/gpu_resume \
  --set train.max_steps=120 --set train.eval_every_steps=50" \
  && ok "a CUDA run resumes on the CPU" || bad "resume on the CPU (see $LOG/resume_cpu.log)"

# --- 5b. SentencePiece through this build's isolation, and one NCCL rank vs the plain run --------
rm -rf runs/gpu_spm
if run spm -- "$BUILD/atento-train" --config configs/sample.json --device "$DEVICE" \
     --out runs/gpu_spm --set train.max_steps=60 --set train.eval_every_steps=30; then
  ok "SentencePiece tokenizers train and load (configs/sample.json on $DEVICE)"
else bad "SentencePiece configuration (see $LOG/spm.log)"; fi
if [ "$DRY" = 1 ] || grep -q "ATENTO_WITH_NCCL" "$LOG/configure.log"; then
  rm -rf runs/gpu_nccl
  port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
  if WORLD_SIZE=1 RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port run nccl -- \
       "$BUILD/atento-train" --config configs/fast.json --device "$DEVICE" --out runs/gpu_nccl \
       --set "train.time_budget_minutes=$MINUTES" --set train.max_epochs=0 \
       --set train.max_steps=0; then
    ok "one NCCL rank: $(json_last runs/gpu_nccl/log.jsonl train tokens_per_s) tokens/s" \
       "(the plain run: $(json_last runs/gpu_fast/log.jsonl train tokens_per_s))"
  else bad "one NCCL rank (see $LOG/nccl.log)"; fi
else
  note "no NCCL in this build (configure found no nccl.h: set NCCL_ROOT)"
fi

# --- 6. beside the PyTorch peer on the book configuration --------------------------------------
note "book configuration: Atento vs the PyTorch peer, $MINUTES min each"
rm -rf runs/gpu_book
with_peak_memory train_book -- "$BUILD/atento-train" --config configs/book.json \
  --device "$DEVICE" --out runs/gpu_book --set "train.time_budget_minutes=$MINUTES" \
  --set train.max_epochs=0 || bad "train book (see $LOG/train_book.log)"
rm -rf runs/gpu_book_graphs
run train_book_graphs -- "$BUILD/atento-train" --config configs/book.json --device "$DEVICE" \
  --out runs/gpu_book_graphs --set "train.time_budget_minutes=$MINUTES" --set train.max_epochs=0 \
  --set train.cuda_graphs=true || bad "train book with CUDA graphs (see $LOG/train_book_graphs.log)"
peer_rate="skipped (no --peer)"
# The peer needs a Python with PyTorch: Debian's, or the GPU machine's own (first on PATH).
peer_python=/usr/bin/python3
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import torch' 2>/dev/null; then peer_python=$py; break; fi
done
if [ -n "$PEER" ] && [ -f "$PEER" ]; then
  if [ -z "$ZIP" ]; then
    peer_rate="skipped (the peer reads the zip: pass --zip)"
  elif with_peak_memory peer -- "$peer_python" "$PEER" --zip "$ZIP" --device "$DEVICE" \
         --minutes "$MINUTES" --threads "$(nproc)"; then
    peer_rate="$(json_last "$LOG/peer.log" train tgt_tokens_per_s) tokens/s,"
    peer_rate+=" accuracy $(json_last "$LOG/peer.log" val val_next_word_acc),"
    peer_rate+=" peak GPU memory $(cat "$LOG/peer.peak" 2>/dev/null)"
  else
    peer_rate="failed (see $LOG/peer.log)"
  fi
elif [ -n "$PEER" ]; then
  peer_rate="skipped ($PEER not found)"
fi
echo
printf '%-10s %s\n' "book" "training target tokens/s on $DEVICE"
atento_rate="$(json_last runs/gpu_book/log.jsonl train tokens_per_s) tokens/s,"
atento_rate+=" accuracy $(json_last runs/gpu_book/log.jsonl valid next_word_accuracy),"
atento_rate+=" peak GPU memory $(cat "$LOG/train_book.peak" 2>/dev/null)"
printf '%-10s %s\n' "atento" "$atento_rate"
graphs_rate="$(json_last runs/gpu_book_graphs/log.jsonl train tokens_per_s) tokens/s,"
graphs_rate+=" accuracy $(json_last runs/gpu_book_graphs/log.jsonl valid next_word_accuracy)"
printf '%-10s %s\n' "graphs" "$graphs_rate (train.cuda_graphs)"
printf '%-10s %s\n' "peer" "$peer_rate"

echo
note "summary (logs in $LOG)"
printf '%s\n' "${summary[@]}"
[ "$failures" -eq 0 ]
