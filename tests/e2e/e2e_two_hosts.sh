#!/usr/bin/env bash
# Data-parallel training across two hosts, simulated: two network namespaces joined by a veth
# pair, each with its own address, one rank in each (MASTER_ADDR = the first's address, Gloo on
# the veth interface, the model directory on the file system both see). The result must equal
# the one-host two-rank run; then the link is cut mid-run and both ranks must end with a clear
# error within distributed.timeout_s. Only addresses inside these namespaces are used; the
# namespaces (and with them the veth pair) are removed whatever happens. Needs root.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
T="$BUILD/atento-train"
DIFF="$BUILD/atento_weights_diff"
require_gloo
if [ "$(id -u)" != 0 ]; then echo "skipped: creating network namespaces needs root"; exit 77; fi
host0=atento_h0_$$ host1=atento_h1_$$ veth0=atv0_$$ veth1=atv1_$$
addr0=10.211.7.1 addr1=10.211.7.2
cleanup() {
  ip netns del "$host0" 2>/dev/null
  ip netns del "$host1" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
if ! ip netns add "$host0" 2>/dev/null || ! ip netns add "$host1"; then
  echo "skipped: this machine cannot create network namespaces"; exit 77
fi
ip link add "$veth0" netns "$host0" type veth peer name "$veth1" netns "$host1" || {
  echo "skipped: cannot create a veth pair"; exit 77; }
ip -n "$host0" addr add "$addr0/30" dev "$veth0"
ip -n "$host1" addr add "$addr1/30" dev "$veth1"
for host in "$host0" "$host1"; do ip -n "$host" link set lo up; done
ip -n "$host0" link set "$veth0" up
ip -n "$host1" link set "$veth1" up
ip -n "$host1" route get "$addr0" | grep -q "dev $veth1" \
  && pass "the second host reaches the first over the veth pair" || fail "no route between the hosts"

common=(--config configs/sample.json --set model.dropout=0 --set train.threads=1
        --set train.eval_every_steps=10 --set train.log_every_steps=5)
port=29511
# rank HOST VETH RANK OUT ARGS...: one rank of a two-host group, in HOST's namespace.
rank() {
  local host=$1 veth=$2 r=$3 out=$4; shift 4
  ip netns exec "$host" env RANK="$r" WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 \
    MASTER_ADDR="$addr0" MASTER_PORT="$port" GLOO_SOCKET_IFNAME="$veth" OMP_NUM_THREADS=1 \
    "$T" "${common[@]}" --out "$out" "$@"
}

# --- the same maths as two ranks on one host ------------------------------------------------
expect_exit 0 "one host, two ranks (--nproc 2), 30 steps" -- "$T" "${common[@]}" \
  --set train.max_steps=30 --out "$WORK/one_host" --nproc 2
rank "$host1" "$veth1" 1 "$WORK/two_hosts" --set train.max_steps=30 \
  --set distributed.timeout_s=60 >/dev/null 2>"$WORK/r1.err" &
r1=$!
expect_exit 0 "two hosts, one rank each, 30 steps" -- rank "$host0" "$veth0" 0 "$WORK/two_hosts" \
  --set train.max_steps=30 --set distributed.timeout_s=60
wait "$r1"; code=$?
[ "$code" = 0 ] && pass "the rank on the second host exits 0" || { fail "second host: exit $code"; tail -3 "$WORK/r1.err"; }
diff=$("$DIFF" "$WORK/one_host/checkpoints/step-30/model.pt" \
  "$WORK/two_hosts/checkpoints/step-30/model.pt" | awk '{print $2}')
python3 -c "import sys; sys.exit(abs(float(sys.argv[1])) > 1e-6)" "${diff:-1}" \
  && pass "two hosts = two ranks on one host (max |Δw| $diff)" \
  || fail "two hosts differ from one host: max |Δw| ${diff:-n/a}"
a=$(json_get "$WORK/one_host/log.jsonl" "[round(e['loss'], 6) for e in events if e['event']=='valid']")
b=$(json_get "$WORK/two_hosts/log.jsonl" "[round(e['loss'], 6) for e in events if e['event']=='valid']")
[ "$a" = "$b" ] && pass "the same validation losses ($a)" || fail "validation losses $a vs $b"

# --- the link cut mid-run: both ranks end with a clear error within the timeout ------------
timeout_s=15
rank "$host0" "$veth0" 0 "$WORK/cut" --set train.max_steps=100000 --set train.max_epochs=100000 \
  --set distributed.timeout_s=$timeout_s >/dev/null 2>"$WORK/cut0.err" &
r0=$!
rank "$host1" "$veth1" 1 "$WORK/cut" --set train.max_steps=100000 --set train.max_epochs=100000 \
  --set distributed.timeout_s=$timeout_s >/dev/null 2>"$WORK/cut1.err" &
r1=$!
for _ in $(seq 1 600); do
  grep -q '"step":10,' "$WORK/cut/log.jsonl" 2>/dev/null && break; sleep 0.2
done
ip -n "$host1" link set "$veth1" down
cut_at=$(date +%s)
limit=$((timeout_s * 2 + 15))
wait_exit "$r0" "$limit"; code0=$?
wait_exit "$r1" "$limit"; code1=$?
took=$(( $(date +%s) - cut_at ))
for r in 0 1; do
  code=$([ $r = 0 ] && echo "$code0" || echo "$code1")
  if [ "$code" != 0 ] && [ "$code" != 124 ] && grep -q "^error: " "$WORK/cut$r.err"; then
    pass "link cut: rank $r ends with exit $code and an error ($(grep -m1 '^error: ' "$WORK/cut$r.err" | cut -c1-100))"
  else
    fail "link cut: rank $r exit $code (124 = still running after ${limit} s)"; tail -3 "$WORK/cut$r.err"
  fi
done
[ "$took" -le "$limit" ] && pass "both ranks ended ${took} s after the cut (distributed.timeout_s $timeout_s)" \
  || fail "the ranks took ${took} s to end after the cut"
finish
