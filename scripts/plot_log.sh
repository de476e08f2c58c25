#!/usr/bin/env bash
# Plots training curves from one or more Atento run directories into a single PNG.
#
#   scripts/plot_log.sh RUN_DIR... [-o OUT.png]
#
# Each RUN_DIR holds the log.jsonl written by atento-train (a path to a log.jsonl file also
# works). The PNG has four panels, one line per run, titled by the run directory's name:
#   training loss vs step            validation next-word accuracy (%) vs step
#   validation loss vs step          validation next-word accuracy (%) vs elapsed minutes
# Example: scripts/plot_log.sh runs/fast runs/fast-nopos -o runs/positions.png
# OUT defaults to runs/plot.png (in the repository). Needs gnuplot and python3 (stdlib only).
# Resumed runs (several start/resume segments) are fine: points are merged by step, the last
# record for a step wins. Unparsable lines (e.g. a line cut short by a crash) are skipped with
# a warning; a log without any validation event is an error.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
die() { echo "error: $*" >&2; exit 2; }

out="$repo_root/runs/plot.png"
runs=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    -o|--output)
      if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1 needs a file name"; fi
      out="$2"; shift 2 ;;
    -o=*|--output=*) out="${1#*=}"; [ -n "$out" ] || die "-o needs a file name"; shift ;;
    --) shift; runs+=("$@"); break ;;
    -?*) die "unknown option '$1' (usage: scripts/plot_log.sh RUN_DIR... [-o OUT.png])" ;;
    *) runs+=("$1"); shift ;;
  esac
done
[ ${#runs[@]} -gt 0 ] || die "no run directory given (usage: scripts/plot_log.sh RUN_DIR... [-o OUT.png])"
command -v gnuplot >/dev/null || die "gnuplot not found (apt-get install gnuplot-nox)"
command -v python3 >/dev/null || die "python3 not found"
case "$out" in *$'\n'*) die "output file name contains a newline" ;; esac

# (label, log file) pairs; the label is the run directory's basename.
specs=()
for run in "${runs[@]}"; do
  if [ -f "$run" ]; then
    log="$run"; dir="$(dirname -- "$run")"
  else
    [ -d "$run" ] || die "no such run directory: $run"
    log="${run%/}/log.jsonl"; dir="$run"
    [ -f "$log" ] || die "missing $log (is '$run' an atento-train run directory?)"
  fi
  label="$(basename -- "$(cd -- "$dir" && pwd)")"
  specs+=("$label" "$log")
done

# Captured first: with pipefail, grep -q closing the pipe early could fail the pipeline.
terminals="$(gnuplot -e 'set terminal' 2>&1 || true)"
if grep -qw pngcairo <<<"$terminals"; then
  terminal="pngcairo size 1400,1000 noenhanced font 'sans,11'"
else
  terminal="png size 1400,1000 noenhanced"
fi

tmp="$(mktemp -d)"
trap 'rm -rf -- "$tmp"' EXIT

# Reshape the logs into whitespace-separated data files plus a gnuplot script (all quoting of
# run names and paths happens here, in Python).
python3 - "$tmp" "$terminal" "$tmp/plot.png" "${specs[@]}" <<'PY'
import json, math, os, sys

tmp, terminal, png = sys.argv[1:4]
specs = sys.argv[4:]
runs = [(specs[i], specs[i + 1]) for i in range(0, len(specs), 2)]


def fail(msg):
    print("error: " + msg, file=sys.stderr)
    sys.exit(2)


def gp(s):
    """A gnuplot single-quoted string literal (only ' needs escaping, by doubling it)."""
    return "'" + str(s).replace("\n", " ").replace("'", "''") + "'"


def num(record, key):
    v = record.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return None
    return float(v)


# Disambiguate identical basenames (runs/a/fast vs runs/b/fast) with the log's path.
labels = [label for label, _ in runs]
runs = [(label if labels.count(label) == 1 else os.path.dirname(path) or label, path)
        for label, path in runs]

parsed = []
for index, (label, path) in enumerate(runs):
    train, valid = {}, {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except ValueError:
                    print(f"warning: {path}:{lineno}: not JSON, skipped", file=sys.stderr)
                    continue
                if not isinstance(rec, dict):
                    continue
                step = num(rec, "step")
                if step is None:
                    continue
                event = rec.get("event")
                if event == "train":
                    loss = num(rec, "loss")
                    if loss is not None:
                        train[step] = loss
                elif event == "valid":
                    loss, acc = num(rec, "loss"), num(rec, "next_word_accuracy")
                    elapsed = num(rec, "elapsed_s")
                    if loss is not None and acc is not None:
                        valid[step] = (loss, 100.0 * acc, elapsed)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    if not valid:
        fail(f"{path} has no validation events (event \"valid\"); nothing to plot")
    with open(os.path.join(tmp, f"train_{index}.dat"), "w") as f:
        for step in sorted(train):
            f.write(f"{step:g} {train[step]!r}\n")
    with open(os.path.join(tmp, f"valid_{index}.dat"), "w") as f:
        for step in sorted(valid):
            loss, acc, elapsed = valid[step]
            minutes = "NaN" if elapsed is None else repr(elapsed / 60.0)
            f.write(f"{step:g} {loss!r} {acc!r} {minutes}\n")
    parsed.append((label, len(train), len(valid)))


def style(n_points):
    return "lines lw 2" if n_points > 60 else "linespoints lw 2 pt 7 ps 0.7"


def plot(kind, using):
    parts = []
    for index, (label, n_train, n_valid) in enumerate(parsed):
        n = n_train if kind == "train" else n_valid
        if n == 0:
            continue
        data = gp(os.path.join(tmp, f"{kind}_{index}.dat"))
        parts.append(f"{data} using {using} with {style(n)} lc {index + 1} title {gp(label)}")
    if not parts:
        return ("set label 1 'no training events logged' at graph 0.5,0.5 center\n"
                "plot [0:1][0:1] NaN notitle\nunset label 1")
    return "plot " + ", \\\n     ".join(parts)


title = " vs ".join(label for label, _, _ in parsed)
script = f"""set terminal {terminal}
set encoding utf8
set output {gp(png)}
set grid
set key noenhanced box opaque
set multiplot layout 2,2 title {gp("Atento training: " + title)}

set title 'Training loss (logging-window average)'
set xlabel 'step'
set ylabel 'loss'
set key top right
{plot("train", "1:2")}

set title 'Validation next-word accuracy'
set xlabel 'step'
set ylabel 'accuracy (%)'
set key bottom right
{plot("valid", "1:3")}

set title 'Validation loss'
set xlabel 'step'
set ylabel 'loss'
set key top right
{plot("valid", "1:2")}

set title 'Validation next-word accuracy vs time'
set xlabel 'elapsed (minutes)'
set ylabel 'accuracy (%)'
set key bottom right
{plot("valid", "4:3")}

unset multiplot
set output
"""
with open(os.path.join(tmp, "plot.gp"), "w", encoding="utf-8") as f:
    f.write(script)
for label, n_train, n_valid in parsed:
    print(f"{label}: {n_train} train points, {n_valid} validation points")
PY

gnuplot "$tmp/plot.gp" || die "gnuplot failed to draw $out"
[ -s "$tmp/plot.png" ] || die "gnuplot wrote no image"
out_dir="$(dirname -- "$out")"
mkdir -p -- "$out_dir"
mv -f -- "$tmp/plot.png" "$out"
echo "wrote $out"
