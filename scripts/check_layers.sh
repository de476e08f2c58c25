#!/usr/bin/env bash
# Checks that every #include "…" of the project runs down the layers: the allowed edges are
# listed here and nowhere else (docs/architecture.md draws them). Exit 1, naming each include
# that runs against them; CI runs this as the ctest entry check_layers.
set -euo pipefail
cd "$(dirname "$0")/.."

# layer: the layers its files may include besides their own (directly, not transitively).
declare -A allowed=(
  [data]=""
  [model]=""
  [app/common]="data model"
  [app/model_dir]="app/common data model"
  [app/scoring]="app/common data model"
  [app/translate]="app/model_dir app/common data model"
  [app/eval]="app/translate app/scoring app/model_dir app/common data model"
  [app/distributed]="app/scoring app/common data model"
  [app/train]="app/translate app/distributed app/scoring app/model_dir app/common data model"
  [app/filter]="app/train app/distributed app/scoring app/model_dir app/common data model"
  [app/serve]="app/translate app/model_dir app/common data model"
  [app/cli]="app/filter app/train app/distributed app/eval app/translate app/serve app/scoring
             app/model_dir app/common data model"
)

# The layer of a path: data/spm/x.h → data, app/train/x.h → app/train.
layer_of() {
  case $1 in
    data/*) echo data ;;
    model/*) echo model ;;
    app/*/*) echo "${1%/*}" | cut -d/ -f1-2 ;;
    *) echo "" ;;
  esac
}

bad=0
checked=0
while IFS= read -r file; do
  from=$(layer_of "$file")
  if [ -z "${allowed[$from]+set}" ]; then
    echo "check_layers: $file: in no layer (add its folder to scripts/check_layers.sh)"
    bad=$((bad + 1)); continue
  fi
  while IFS= read -r included; do
    to=$(layer_of "$included")
    [ -z "$to" ] && continue  # tests/… helpers and system headers
    checked=$((checked + 1))
    [ "$to" = "$from" ] && continue
    if ! [[ " ${allowed[$from]//$'\n'/ } " == *" $to "* ]]; then
      echo "check_layers: $file includes $included: $from may not include $to"
      bad=$((bad + 1))
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(git ls-files 'data/*.h' 'data/*.cpp' 'model/*.h' 'model/*.cpp' 'app/*.h' 'app/*.cpp')

# No library file includes CLI11: option parsing belongs to app/cli/.
while IFS= read -r file; do
  echo "check_layers: $file includes CLI11 (only app/cli/ may)"
  bad=$((bad + 1))
done < <(git grep -l '#include <CLI/' -- 'data/*' 'model/*' 'app/*' ':!app/cli/*' || true)

# app/'s top level: the wings alone, at most 12 entries.
entries=$(git ls-files app | cut -d/ -f2 | sort -u | wc -l)
if [ "$entries" -gt 12 ]; then
  echo "check_layers: app/ shows $entries entries at its top level (at most 12)"
  bad=$((bad + 1))
fi
echo "check_layers: $checked includes checked, $bad against the layers"
[ "$bad" -eq 0 ]
