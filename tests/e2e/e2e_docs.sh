#!/usr/bin/env bash
# The documentation covers the programs: every long flag that a program's --help lists, and every
# configuration key that `atento-train --print-config` resolves, must appear in the docs.
# Flags are looked for in README.md and docs/*.md; keys, as `section.key`, in
# docs/configuration.md (the reference of every key).
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."

docs=(README.md docs/*.md)
[ -f docs/configuration.md ] && pass "docs/configuration.md exists" \
  || fail "docs/configuration.md is missing"

# documented PATTERN FILE...: PATTERN (a fixed string: a flag or section.key) occurs in FILE...
# as a whole name, i.e. not as a prefix or suffix of a longer flag or key.
documented() {
  local name=$1; shift
  local quoted=${name//./\\.}
  grep -qE -- "(^|[^A-Za-z0-9_.-])${quoted}([^A-Za-z0-9_-]|$)" "$@"
}

# --- flags -----------------------------------------------------------------------------------
for program in atento-train atento-translate atento-eval atento-filter atento-serve \
               atento-average atento-release; do
  if [ ! -x "$BUILD/$program" ]; then
    # atento-serve is left out of builds without cpp-httplib (-DATENTO_SERVER=OFF).
    if [ "$program" = atento-serve ]; then echo "skip: $program is not built here"; continue; fi
    fail "$program: not found in $BUILD"; continue
  fi
  if ! "$BUILD/$program" --help >"$WORK/help" 2>&1; then
    fail "$program --help: exit status not 0"; sed 's/^/    /' "$WORK/help" | tail -5; continue
  fi
  # CLI11 prints flags as "-h,--help", "--beam INT", "--whole-batches{false}": the name is
  # what precedes the first character that cannot be part of it.
  flags=$(grep -oE -- '--[a-z][a-z0-9-]*' "$WORK/help" | sed 's/-*$//' | sort -u)
  if [ -z "$flags" ]; then fail "$program --help lists no flags"; continue; fi
  missing=()
  for flag in $flags; do documented "$flag" "${docs[@]}" || missing+=("$flag"); done
  if [ ${#missing[@]} -eq 0 ]; then pass "$program: all $(wc -w <<<"$flags") flags documented"
  else fail "$program: undocumented flags: ${missing[*]}"; fi
done

# --- configuration keys ----------------------------------------------------------------------
if "$BUILD/atento-train" --config configs/sample.json --print-config >"$WORK/config.json" \
     2>"$WORK/stderr"; then
  keys=$(python3 -c '
import json, sys
config = json.load(open(sys.argv[1]))
for section, value in config.items():
    if isinstance(value, dict):  # format_version and other top-level scalars are not keys
        for key in value:
            print(section + "." + key)
' "$WORK/config.json")
  if [ -z "$keys" ]; then
    fail "--print-config printed no keys"
  else
    missing=()
    for key in $keys; do documented "$key" docs/configuration.md || missing+=("$key"); done
    if [ ${#missing[@]} -eq 0 ]; then
      pass "all $(wc -w <<<"$keys") configuration keys are in docs/configuration.md"
    else fail "keys missing from docs/configuration.md: ${missing[*]}"; fi
  fi
else
  fail "atento-train --print-config failed"; sed 's/^/    /' "$WORK/stderr" | tail -5
fi
finish
