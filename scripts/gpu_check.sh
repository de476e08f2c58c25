#!/usr/bin/env bash
# The checks that need an NVIDIA GPU and a CUDA LibTorch, in one run:
#   configure (the README's GPU line) → build → unit and end-to-end tests (the model's device
#   tests and the CUDA graph tests run on CUDA) → SentencePiece through the build's isolation →
#   the old crash after the second validation → training tokens/s beside the PyTorch peer's on
#   the book configuration, eager and as CUDA graphs (train.cuda_graphs), with peak GPU memory →
#   configs/fast.json and configs/base.json trained on CUDA, translated and evaluated on CUDA and
#   on the CPU, greedy decoding eager and as CUDA graphs → bf16 → a CUDA run resumed on the CPU
#   → one NCCL rank.
#
# usage: scripts/gpu_check.sh --libtorch DIR [--deps DIR] [--zip spa-eng.zip] [--peer ref_torch.py]
#                             [--minutes N] [--configs "fast base:M ..."] [--book-minutes N]
#                             [--deadline S] [--skip "ctest crash bf16 resume nccl ..."]
#                             [--sample N] [--build DIR] [--device cuda:N] [--dry-run]
#   --libtorch  LibTorch with CUDA: the folder holding share/cmake/Torch and lib/ (an unpacked
#               upstream LibTorch, or a PyTorch wheel's torch/ folder)
#   --deps      SentencePiece, CLI11, nlohmann_json, ICU, libxml2, OpenSSL and GoogleTest carried
#               from Debian (include/, lib/, share/cmake/, lib/pkgconfig/); not needed where
#               they are installed
#   --zip       the spa-eng corpus zip (else runs/data/spa-eng.tsv must exist)
#   --peer      the PyTorch peer script (ref_torch.py); its comparison is skipped when absent
#   --minutes   training time per configuration (default 5)
#   --configs   the configurations trained, translated and evaluated (default "fast base"); NAME:M
#               trains NAME for M minutes, NAME:rest for the time left before --deadline
#   --book-minutes  training time of each book-configuration run (default: --minutes)
#   --deadline  seconds from the start within which the whole run should end (default: none);
#               a NAME:rest configuration gets what is left, less 120 s for its evaluation
#   --skip      sections left out: ctest (the whole suite; the device tests still run), crash,
#               book, peer, bf16, resume, nccl. Without ctest only the programs and the test
#               binaries holding the device tests are built (short leases)
#   --skip-ctest  the same as --skip ctest
#   --sample    lines of the test split translated on both devices (default 1000)
#   --dry-run   print the plan and the commands, run nothing (works without a GPU)
# Exit: 0 every check passed, 1 a check failed, 2 usage error, 3 no CUDA device here.
set -uo pipefail
cd "$(dirname "$0")/.."
START=$SECONDS

LIBTORCH="" DEPS="" ZIP="" PEER="" MINUTES=5 BUILD=build-gpu DEVICE=cuda DRY=0 SKIP="" BOOK_MINUTES=""
CONFIGS="fast base" DEADLINE="" SAMPLE=1000
usage() { sed -n '2,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//'; }
number() { case "$2" in ''|*[!0-9.]*) echo "error: $1 expects a number, got '$2'" >&2; exit 2 ;; esac; }
while [ $# -gt 0 ]; do
  case "$1" in
    --libtorch) LIBTORCH=${2:?}; shift 2 ;;
    --deps) DEPS=${2:?}; shift 2 ;;
    --zip) ZIP=${2:?}; shift 2 ;;
    --peer) PEER=${2:?}; shift 2 ;;
    --minutes) MINUTES=${2:?}; shift 2 ;;
    --book-minutes) BOOK_MINUTES=${2:?}; shift 2 ;;
    --deadline) DEADLINE=${2:?}; shift 2 ;;
    --build) BUILD=${2:?}; shift 2 ;;
    --device) DEVICE=${2:?}; shift 2 ;;
    --configs) CONFIGS=${2?}; shift 2 ;;
    --skip) SKIP="$SKIP ${2?}"; shift 2 ;;
    --skip-ctest) SKIP="$SKIP ctest"; shift ;;
    --sample) SAMPLE=${2:?}; shift 2 ;;
    --dry-run) DRY=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
if [ -z "$LIBTORCH" ] && [ "$DRY" = 0 ]; then
  echo "error: --libtorch DIR is required (an upstream LibTorch with CUDA)" >&2; exit 2
fi
number --minutes "$MINUTES"
BOOK_MINUTES=${BOOK_MINUTES:-$MINUTES}
number --book-minutes "$BOOK_MINUTES"
[ -z "$DEADLINE" ] || number --deadline "$DEADLINE"
number --sample "$SAMPLE"
for section in $SKIP; do
  case "$section" in
    ctest|crash|book|peer|bf16|resume|nccl) ;;
    *) echo "error: --skip: unknown section '$section' (ctest crash book peer bf16 resume nccl)" >&2
       exit 2 ;;
  esac
done
for entry in $CONFIGS; do
  case "${entry#*:}" in
    "$entry"|rest) ;;
    *) number "--configs $entry" "${entry#*:}" ;;
  esac
  [ -f "configs/${entry%%:*}.json" ] || { echo "error: --configs: no configs/${entry%%:*}.json" >&2; exit 2; }
done
skipped() { case " $SKIP " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

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
generator=() keep_going=()
if command -v ninja >/dev/null; then generator=(-G Ninja); keep_going=(-- -k 0); fi
# Without ctest, only the programs and the test binaries that hold the device tests.
targets=()
if skipped ctest; then
  targets=(--target atento-train atento-translate atento-eval atento_tests_model atento_tests_train
           atento_tests_translate)
fi
note "configure and build into $BUILD"
# Without the sanitizer copies of the code (CI runs those on CPU; the device's time is short).
if run configure -- cmake -S . -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
     -DATENTO_SERVER=OFF -DATENTO_JEMALLOC=OFF -DATENTO_SANITIZE_TESTS=OFF \
     "-DCMAKE_PREFIX_PATH=$prefix" -DATENTO_SPM_ISOLATION=AUTO \
   && run build -- cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" "${keep_going[@]}"; then
  ok "configure and build ($((SECONDS - START)) s)"
  [ "$DRY" = 1 ] || grep -E "SentencePiece isolation|data-parallel backends" "$LOG/configure.log"
else
  bad "configure or build (see $LOG/configure.log, $LOG/build.log)"
  if [ "$DRY" = 0 ]; then
    tail -20 "$LOG/configure.log"
    grep -E -A4 "error|Error" "$LOG/build.log" | head -150
    printf '%s\n' "${summary[@]}"; exit 1
  fi
fi

# --- 2. tests: the model's device tests must run on CUDA, not skip ---------------------------
note "unit and end-to-end tests"
if skipped ctest; then note "ctest skipped (--skip ctest)"
elif run ctest -- ctest --test-dir "$BUILD" --output-on-failure; then ok "ctest"
else bad "ctest (see $LOG/ctest.log)"; fi
# device_test NAME BINARY FILTER SKIP_MESSAGE WHAT: a gtest binary whose tests must run on CUDA.
device_test() {
  if run "$1" -- "$BUILD/$2" --gtest_filter="$3"; then
    if [ "$DRY" = 0 ] && grep -q "$4" "$LOG/$1.log"; then
      bad "$1: skipped, no CUDA device or a LibTorch without CUDA"
    else ok "$5"; fi
  else bad "$1 (see $LOG/$1.log)"; [ "$DRY" = 1 ] || grep -E "Failure|FAILED|Expected|Which is" "$LOG/$1.log" | head -20; fi
}
device_test devices atento_tests_model '*Devices*' "no CUDA device" \
  "model invariants and CPU-vs-CUDA agreement on CUDA"
device_test graphs atento_tests_train 'StepGraphs.*' "needs a CUDA device" \
  "training steps captured as CUDA graphs give the eager steps' weights"
device_test decode_graphs atento_tests_translate 'GreedyGraphs.*' "needs a CUDA device" \
  "greedy decoding steps captured as CUDA graphs give the eager hypotheses"

# --- 3. data ---------------------------------------------------------------------------------
if [ -n "$ZIP" ]; then run data -- scripts/get_data.sh "$ZIP" || bad "get_data.sh $ZIP"; fi
if [ "$DRY" = 0 ] && [ ! -s runs/data/spa-eng.tsv ]; then
  bad "no corpus: pass --zip spa-eng.zip"; printf '%s\n' "${summary[@]}"; exit 1
fi

# --- 4. SentencePiece through this build's isolation -------------------------------------------
rm -rf runs/gpu_spm
if run spm -- "$BUILD/atento-train" --config configs/sample.json --device "$DEVICE" \
     --out runs/gpu_spm --set train.max_steps=60 --set train.eval_every_steps=30 \
   && run spm_translate -- "$BUILD/atento-translate" --model runs/gpu_spm --device "$DEVICE" \
     --input runs/gpu_spm/test.tsv --output "$LOG/spm_hyps.txt"; then
  ok "SentencePiece tokenizers train, load and translate (configs/sample.json on $DEVICE)"
else bad "SentencePiece configuration (see $LOG/spm.log, $LOG/spm_translate.log)"; fi

# --- 5. the crash after the second validation --------------------------------------------------
# Five validations on fast.json (every 40 steps). If the plain run crashes, the variants say
# where: a fault handler that prints the faulting address, the instruction pointer and the
# library it lies in (the earlier backtrace had no frames: a jump to a bad address or a frame
# without unwind data); gdb's view of every thread; the host heap checked by glibc; the CUDA
# side under compute-sanitizer; and the old heap tuning (mallopt) forced back on.
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
if skipped crash; then note "crash check skipped (--skip crash)"; else
note "crash after the second validation (fast.json, validation every 40 steps)"
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
    run crash_sanitizer -- timeout 60 compute-sanitizer --tool memcheck --print-limit 20 \
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
fi

# --- 6. beside the PyTorch peer on the book configuration --------------------------------------
peer_rate="skipped (no --peer)"
if skipped book; then note "book configuration skipped (--skip book)"; else
note "book configuration: Atento (eager, CUDA graphs) vs the PyTorch peer, $BOOK_MINUTES min each"
rm -rf runs/gpu_book
with_peak_memory train_book -- "$BUILD/atento-train" --config configs/book.json \
  --device "$DEVICE" --out runs/gpu_book --set "train.time_budget_minutes=$BOOK_MINUTES" \
  --set train.max_epochs=0 || bad "train book (see $LOG/train_book.log)"
rm -rf runs/gpu_book_graphs
with_peak_memory train_book_graphs -- "$BUILD/atento-train" --config configs/book.json \
  --device "$DEVICE" --out runs/gpu_book_graphs --set "train.time_budget_minutes=$BOOK_MINUTES" \
  --set train.max_epochs=0 --set train.cuda_graphs=true \
  || bad "train book with CUDA graphs (see $LOG/train_book_graphs.log)"
# The peer needs a Python with PyTorch: Debian's, or the GPU machine's own (first on PATH).
peer_python=/usr/bin/python3
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import torch' 2>/dev/null; then peer_python=$py; break; fi
done
if skipped peer; then
  peer_rate="skipped (--skip peer)"
elif [ -n "$PEER" ] && [ -f "$PEER" ]; then
  if [ -z "$ZIP" ]; then
    peer_rate="skipped (the peer reads the zip: pass --zip)"
  elif with_peak_memory peer -- "$peer_python" "$PEER" --zip "$ZIP" --device "$DEVICE" \
         --minutes "$BOOK_MINUTES" --val-every-min "$BOOK_MINUTES" --threads "$(nproc)"; then
    peer_rate="$(json_last "$LOG/peer.log" train tgt_tokens_per_s) tokens/s,"
    peer_rate+=" accuracy $(json_last "$LOG/peer.log" val val_next_word_acc),"
    peer_rate+=" peak GPU memory $(cat "$LOG/peer.peak" 2>/dev/null)"
  else
    peer_rate="failed (see $LOG/peer.log)"
  fi
elif [ -n "$PEER" ]; then
  peer_rate="skipped ($PEER not found)"
fi
fi

# --- 7. bounded training, translation, evaluation ----------------------------------------------
# first_reaching FILE PERCENT: elapsed seconds at the first validation at or above PERCENT.
first_reaching() {
  python3 -c "import json,sys
for l in open(sys.argv[1]):
    if not l.startswith('{'): continue
    e=json.loads(l); a=e.get('next_word_accuracy')
    if e.get('event')=='valid' and a is not None and (a if a>1 else 100*a)>=float(sys.argv[2]):
        print('%.1f s (step %d)' % (e['elapsed_s'], e['step'])); break
else: print('not reached')" "$@" 2>/dev/null || echo n/a
}
# minutes_for ENTRY: NAME:M → M; NAME → --minutes; NAME:rest → the time left before --deadline
# less 120 s for translation and evaluation (at least 0.5 minutes).
minutes_for() {
  case "$1" in
    *:rest) if [ -z "$DEADLINE" ]; then echo "$MINUTES"
            else python3 -c "import sys; print(round(max(0.5, min(float(sys.argv[3]), (float(sys.argv[1]) - float(sys.argv[2]) - 120) / 60)), 2))" \
                   "$DEADLINE" "$((SECONDS - START))" "$MINUTES"; fi ;;
    *:*) echo "${1#*:}" ;;
    *) echo "$MINUTES" ;;
  esac
}
for entry in $CONFIGS; do
  cfg=${entry%%:*}
  minutes=$(minutes_for "$entry")
  out=runs/gpu_$cfg
  rm -rf "$out"
  note "train configs/$cfg.json on $DEVICE for $minutes min"
  if with_peak_memory "train_$cfg" -- "$BUILD/atento-train" --config "configs/$cfg.json" \
       --device "$DEVICE" --out "$out" --set "train.time_budget_minutes=$minutes" \
       --set train.max_epochs=0 --set train.max_steps=0; then
    ok "train $cfg for $minutes min: $(json_last "$out/log.jsonl" train tokens_per_s) target tokens/s," \
       "valid accuracy $(json_last "$out/log.jsonl" valid next_word_accuracy) at step" \
       "$(json_last "$out/log.jsonl" valid step); 67% at $(first_reaching "$out/log.jsonl" 67)," \
       "71% at $(first_reaching "$out/log.jsonl" 71); peak GPU memory $(cat "$LOG/train_$cfg.peak" 2>/dev/null)"
  else
    bad "train $cfg (see $LOG/train_$cfg.log)"; [ "$DRY" = 1 ] || tail -5 "$LOG/train_$cfg.log"; continue
  fi
  # Greedy decoding of the whole test split as CUDA graphs (translate.cuda_graphs) against
  # continuous batching.
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
       --device "$DEVICE" --output "$LOG/eval_${cfg}_hyps.txt"; then ok "eval $cfg on $DEVICE: $(tail -1 "$LOG/eval_$cfg.log" 2>/dev/null)"
  else bad "eval $cfg (see $LOG/eval_$cfg.log)"; fi
  # The same sentences on both devices (the model's own decoding settings).
  [ "$DRY" = 1 ] || head -n "$SAMPLE" "$out/test.tsv" >"$LOG/sample_$cfg.tsv"
  for dev in "$DEVICE" cpu; do
    run "translate_${cfg}_$dev" -- "$BUILD/atento-translate" --model "$out" --device "$dev" \
      --input "$LOG/sample_$cfg.tsv" --output "$LOG/hyps_${cfg}_$dev.txt" \
      && ok "translate $cfg on $dev" || bad "translate $cfg on $dev (see $LOG/translate_${cfg}_$dev.log)"
  done
  if [ "$DRY" = 0 ] && ! cmp -s "$LOG/hyps_${cfg}_$DEVICE.txt" "$LOG/hyps_${cfg}_cpu.txt"; then
    echo "note: $cfg translations differ between $DEVICE and cpu on" \
      "$(diff "$LOG/hyps_${cfg}_$DEVICE.txt" "$LOG/hyps_${cfg}_cpu.txt" | grep -c '^<') of $SAMPLE lines" \
      "(the CPU decodes at the model's translate.precision: auto is bf16 or int8 where that CPU has" \
      "them; in fp32 the devices differ only by rounding)"
  fi
done

# --- 8. bf16, a resume on the CPU, one NCCL rank ----------------------------------------------
if skipped bf16; then note "bf16 skipped (--skip bf16)"; else
rm -rf runs/gpu_bf16
if run train_bf16 -- "$BUILD/atento-train" --config configs/fast.json --device "$DEVICE" \
     --out runs/gpu_bf16 --set train.precision=bf16 --set train.max_steps=400 \
     --set train.eval_every_steps=200 --set train.time_budget_minutes=0; then
  ok "fast.json in bf16: $(json_last runs/gpu_bf16/log.jsonl train tokens_per_s) tokens/s," \
     "accuracy $(json_last runs/gpu_bf16/log.jsonl valid next_word_accuracy) at step 400"
else bad "bf16 training (see $LOG/train_bf16.log)"; fi
fi
if skipped resume; then note "resume skipped (--skip resume)"; else
rm -rf runs/gpu_resume
run resume_cpu -- bash -c "'$BUILD/atento-train' --config configs/fast.json --device '$DEVICE' \
  --out runs/gpu_resume --set train.max_steps=100 --set train.eval_every_steps=50 && \
  '$BUILD/atento-train' --config configs/fast.json --device cpu --out runs/gpu_resume \
  --set train.max_steps=120 --set train.eval_every_steps=50" \
  && ok "a CUDA run resumes on the CPU" || bad "resume on the CPU (see $LOG/resume_cpu.log)"
fi

if skipped nccl; then note "NCCL skipped (--skip nccl)"
elif [ "$DRY" = 1 ] || grep -q "ATENTO_WITH_NCCL" "$LOG/configure.log"; then
  rm -rf runs/gpu_nccl
  port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
  if WORLD_SIZE=1 RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port run nccl -- \
       "$BUILD/atento-train" --config configs/fast.json --device "$DEVICE" --out runs/gpu_nccl \
       --set "train.time_budget_minutes=$MINUTES" --set train.max_epochs=0 \
       --set train.max_steps=0; then
    ok "one NCCL rank: $(json_last runs/gpu_nccl/log.jsonl train tokens_per_s) tokens/s" \
       "(the plain fast.json run: $(json_last runs/gpu_fast/log.jsonl train tokens_per_s))"
  else bad "one NCCL rank (see $LOG/nccl.log)"; fi
else
  note "no NCCL in this build (configure found no nccl.h: set NCCL_ROOT)"
fi

if ! skipped book; then
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
fi

echo
note "summary (logs in $LOG; $((SECONDS - START)) s)"
printf '%s\n' "${summary[@]}"
[ "$failures" -eq 0 ]
