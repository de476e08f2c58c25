#!/usr/bin/env bash
# Draws the decoder's cross-attention for one translated sentence as a grid of heatmaps, one per
# head (like Figure 15.7 of Deep Learning with Python: different heads attend to different
# source words).
#
#   scripts/attention_map.sh FILE N OUT.png [--layer K]
#
# FILE  JSON written by `atento-translate --attention FILE` (one record per input line)
# N     the input line to draw (1-based, the record's "line")
# K     decoder layer, 0-based (default: the last; negative counts from the end, -1 = last)
# Each panel, titled "layer K head H", has the source tokens on the x axis, the output tokens
# top to bottom on the y axis (the extra last step, which produced the end of the sentence, is
# labelled </s>), and the attention weight in [0,1] as colour.
# Example:
#   echo "I like the red house." | build/atento-translate --model runs/fast --attention att.json
#   scripts/attention_map.sh att.json 1 runs/attention.png
# Needs gnuplot and python3 (stdlib only).
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
die() { echo "error: $*" >&2; exit 2; }
readonly USAGE="usage: scripts/attention_map.sh FILE N OUT.png [--layer K]"

layer=""
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --layer)
      if [ $# -lt 2 ]; then die "--layer needs a layer number"; fi
      layer="$2"; shift 2 ;;
    --layer=*) layer="${1#*=}"; shift ;;
    --) shift; positional+=("$@"); break ;;
    -?*) die "unknown option '$1' ($USAGE)" ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 3 ] || die "expected FILE N OUT.png, got ${#positional[@]} argument(s) ($USAGE)"
file="${positional[0]}"; line="${positional[1]}"; out="${positional[2]}"
[[ "$line" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive line number, not '$line'"
if [ -n "$layer" ] && ! [[ "$layer" =~ ^-?[0-9]+$ ]]; then
  die "--layer must be an integer, not '$layer'"
fi
[ -f "$file" ] || die "no such file: $file"
case "$out" in *$'\n'*) die "output file name contains a newline" ;; esac
command -v gnuplot >/dev/null || die "gnuplot not found (apt-get install gnuplot-nox)"
command -v python3 >/dev/null || die "python3 not found"

# Captured first: with pipefail, grep -q closing the pipe early could fail the pipeline.
terminals="$(gnuplot -e 'set terminal' 2>&1 || true)"
if grep -qw pngcairo <<<"$terminals"; then terminal="pngcairo"; else terminal="png"; fi

tmp="$(mktemp -d)"
trap 'rm -rf -- "$tmp"' EXIT

# Check the JSON and reshape the chosen layer into one matrix file per head plus a gnuplot
# script (all quoting of tokens happens here, in Python).
python3 - "$file" "$line" "$layer" "$tmp" "$terminal" "$tmp/attention.png" <<'PY'
import json, math, os, sys

path, line_arg, layer_arg, tmp, terminal, png = sys.argv[1:7]
line = int(line_arg)


def fail(msg):
    print("error: " + msg, file=sys.stderr)
    sys.exit(2)


def warn(msg):
    print("warning: " + msg, file=sys.stderr)


def gp(s):
    """A gnuplot single-quoted string literal (only ' needs escaping, by doubling it)."""
    return "'" + str(s).replace("\n", " ").replace("'", "''") + "'"


def tic(s):
    """A tic label: explicit tic labels are printf formats in gnuplot, so % is doubled."""
    return gp(str(s).replace("%", "%%"))


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


try:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
except (OSError, UnicodeDecodeError) as e:
    fail(f"cannot read {path}: {e}")
except ValueError as e:
    fail(f"{path} is not valid JSON: {e}")
if isinstance(data, dict):
    data = [data]
if not isinstance(data, list):
    fail(f"{path}: expected a JSON array of records from atento-translate --attention")

lines = [r.get("line") for r in data if isinstance(r, dict)]
record = next((r for r in data if isinstance(r, dict) and r.get("line") == line), None)
if record is None:
    shown = [str(n) for n in lines if is_number(n)]
    if len(shown) > 30:
        shown = shown[:30] + ["..."]
    fail(f"{path} has no record for line {line}; available lines: "
         + (", ".join(shown) if shown else "none"))

where = f"{path}, line {line}"
src, out = record.get("source_tokens"), record.get("output_tokens")
layers = record.get("layers")
if not isinstance(src, list) or not isinstance(out, list):
    fail(f"{where}: missing source_tokens/output_tokens arrays")
src, out = [str(t) for t in src], [str(t) for t in out]
if not isinstance(layers, list) or not layers:
    fail(f"{where}: no attention layers recorded")

n_layers = len(layers)
if layer_arg == "":
    k = n_layers - 1
else:
    k = int(layer_arg)
    if k < 0:
        k += n_layers
    if not 0 <= k < n_layers:
        fail(f"--layer {layer_arg} is out of range: {where} has layers 0..{n_layers - 1}")

heads = layers[k]
if not isinstance(heads, list) or not heads:
    fail(f"{where}: layer {k} has no heads")
n_rows = n_cols = None
for h, rows in enumerate(heads):
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        fail(f"{where}: layer {k} head {h} is not a non-empty matrix (list of rows)")
    widths = {len(r) for r in rows}
    if len(widths) != 1 or 0 in widths:
        fail(f"{where}: layer {k} head {h} has rows of different or zero length")
    if n_rows is None:
        n_rows, n_cols = len(rows), widths.pop()
    elif (len(rows), widths.pop()) != (n_rows, n_cols):
        fail(f"{where}: layer {k} heads have different shapes")
    for r in rows:
        for v in r:
            if v is not None and not is_number(v):
                fail(f"{where}: layer {k} head {h} holds a non-number: {v!r}")

# Axis labels: output tokens, then "</s>" for the step that ended the sentence.
if n_rows == len(out) + 1:
    y_labels = out + ["</s>"]
else:
    if n_rows != len(out):
        warn(f"{where}: {n_rows} attention rows for {len(out)} output tokens")
    y_labels = (out + ["</s>"] + [f"#{i}" for i in range(len(out) + 1, n_rows)])[:n_rows]
if n_cols != len(src):
    warn(f"{where}: {n_cols} attention columns for {len(src)} source tokens")
x_labels = (src + [f"#{i}" for i in range(len(src), n_cols)])[:n_cols]

# gnuplot draws an image only from a grid of at least 2x2 points: a single row or column is
# doubled and drawn at half-pixel offsets so that it still covers its cell.
dup_rows, dup_cols = n_rows == 1, n_cols == 1
for h, rows in enumerate(heads):
    with open(os.path.join(tmp, f"head_{h}.dat"), "w") as f:
        for r in (rows * 2 if dup_rows else rows):
            cells = ["NaN" if v is None or not math.isfinite(v) else repr(float(v)) for v in r]
            f.write(" ".join(cells * 2 if dup_cols else cells) + "\n")
x_expr = "($1*0.5-0.25)" if dup_cols else "1"
y_expr = "($2*0.5-0.25)" if dup_rows else "2"

# Layout: at most 4 panels a row, rows as even as possible (8 heads -> 2x4, 6 -> 2x3).
n_heads = len(heads)
grid_rows = -(-n_heads // 4)
grid_cols = -(-n_heads // grid_rows)
cell = 22 if max(n_rows, n_cols) <= 25 else 16
longest_src = max((len(t) for t in x_labels), default=1)
longest_out = max((len(t) for t in y_labels), default=1)
panel_w = 40 + 7 * longest_out + cell * n_cols + 110
panel_h = 50 + cell * n_rows + 20 + 6 * longest_src
width = max(min(grid_cols * max(panel_w, 300), 8000), 500)
height = max(min(grid_rows * max(panel_h, 240) + 60, 8000), 300)


def text(tokens, limit=90):
    s = "".join(tokens).replace("\u2581", " ").strip()
    return s if len(s) <= limit else s[:limit - 3] + "..."


title = (f"Cross-attention, input line {line}, decoder layer {k} of 0..{n_layers - 1}:  "
         f"{text(src)}  \u2192  {text(out)}")
font = "sans,10" if terminal == "pngcairo" else ""
term = f"{terminal} size {width},{height} noenhanced" + (f" font {gp(font)}" if font else "")
xtics = ", ".join(f"{tic(t)} {i}" for i, t in enumerate(x_labels))
ytics = ", ".join(f"{tic(t)} {i}" for i, t in enumerate(y_labels))
lines_gp = [
    f"set terminal {term}",
    "set encoding utf8",
    f"set output {gp(png)}",
    "unset key",
    "set size ratio -1",
    "set cbrange [0:1]",
    "set cbtics 0.25",
    "set palette defined (0 '#ffffff', 0.25 '#c6dbef', 0.5 '#6baed6', 0.75 '#2171b5', 1 '#08306b')",
    f"set xrange [-0.5:{n_cols - 0.5}]",
    f"set yrange [{n_rows - 0.5}:-0.5]",
    f"set xtics ({xtics}) rotate by 60 right scale 0 noenhanced",
    f"set ytics ({ytics}) scale 0 noenhanced",
    f"set multiplot layout {grid_rows},{grid_cols} title {gp(title)} noenhanced",
]
for h in range(n_heads):
    lines_gp += [
        f"set title {gp(f'layer {k} head {h}')} noenhanced",
        f"plot {gp(os.path.join(tmp, f'head_{h}.dat'))} matrix "
        f"using {x_expr}:{y_expr}:3 with image notitle",
    ]
lines_gp += ["unset multiplot", "set output"]
with open(os.path.join(tmp, "attention.gp"), "w", encoding="utf-8") as f:
    f.write("\n".join(lines_gp) + "\n")
print(f"line {line}: {len(src)} source tokens, {len(out)} output tokens, "
      f"layer {k}, {n_heads} heads")
PY

gnuplot "$tmp/attention.gp" || die "gnuplot failed to draw $out"
[ -s "$tmp/attention.png" ] || die "gnuplot wrote no image"
mkdir -p -- "$(dirname -- "$out")"
mv -f -- "$tmp/attention.png" "$out"
echo "wrote $out"
