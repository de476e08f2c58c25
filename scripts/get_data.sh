#!/usr/bin/env bash
# Fetches the public English-Spanish corpus (Tatoeba/manythings.org via TensorFlow's mirror, the
# one "Deep Learning with Python" uses) and writes it as runs/data/spa-eng.tsv
# (English<TAB>Spanish, 118,964 lines).
#
#   scripts/get_data.sh                 download spa-eng.zip (needs network)
#   scripts/get_data.sh PATH/spa-eng.zip   use a zip fetched elsewhere
#   scripts/get_data.sh PATH/spa.txt       use an already-extracted spa.txt (or a .tsv copy)
#
# Every input is checked against known SHA-256 sums; running it again is a no-op once the TSV is
# in place. The corpus stays under runs/ (git-ignored): it is never copied into the repository.
set -euo pipefail

readonly URL="http://storage.googleapis.com/download.tensorflow.org/data/spa-eng.zip"
readonly ZIP_SHA256="f80e581ae291aa34dd3aba7bd98b5e9505234da4318e2f3295df70a1520c7f61"
readonly TXT_SHA256="6ec60e212f812ee3430f7568ea6f33b6fb080e32193c5952e8da0ee8ba45574c"
readonly MEMBER="spa-eng/spa.txt"
readonly LINES=118964

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="${repo_root}/runs/data"
out_tsv="${out_dir}/spa-eng.tsv"

die() {
  echo "error: $*" >&2
  exit 1
}

usage() {
  sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    die "neither sha256sum nor shasum is installed; cannot verify $1"
  fi
}

count_lines() {
  wc -l <"$1" | tr -d ' '
}

report() {
  echo "wrote ${out_tsv} ($(count_lines "${out_tsv}") lines)"
}

# Extracts MEMBER of zip $1 into file $2 with whatever tool this machine has.
extract_member() {
  local zip="$1" dest="$2"
  if command -v unzip >/dev/null 2>&1; then
    unzip -p "${zip}" "${MEMBER}" >"${dest}"
  elif command -v bsdtar >/dev/null 2>&1; then
    bsdtar -xOf "${zip}" "${MEMBER}" >"${dest}"
  else
    local python=""
    for candidate in /usr/bin/python3 python3; do
      if command -v "${candidate}" >/dev/null 2>&1; then
        python="${candidate}"
        break
      fi
    done
    [[ -n "${python}" ]] || die "cannot extract ${zip}: install unzip, bsdtar or python3"
    "${python}" -c '
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst)
' "${zip}" "${MEMBER}" "${dest}"
  fi
}

# Installs text file $1 (already extracted) as the TSV after checking it, atomically.
install_text() {
  local text="$1" sum
  sum="$(sha256_of "${text}")"
  if [[ "${sum}" != "${TXT_SHA256}" ]]; then
    die "${text}: SHA-256 ${sum} is not the expected ${TXT_SHA256} (not the spa-eng corpus \
or damaged); to train on another corpus, point data.corpus at it instead"
  fi
  mkdir -p "${out_dir}"
  local tmp="${out_tsv}.tmp.$$"
  cp "${text}" "${tmp}"
  mv -f "${tmp}" "${out_tsv}"
}

check_zip() {
  local zip="$1" sum
  sum="$(sha256_of "${zip}")"
  if [[ "${sum}" != "${ZIP_SHA256}" ]]; then
    die "${zip}: SHA-256 ${sum} does not match the expected ${ZIP_SHA256} (incomplete \
download or a different file); fetch it again"
  fi
}

install_zip() {
  local zip="$1"
  check_zip "${zip}"
  mkdir -p "${out_dir}"
  local tmp="${out_dir}/spa.txt.tmp.$$"
  trap 'rm -f "${tmp}"' EXIT
  extract_member "${zip}" "${tmp}" || die "cannot extract ${MEMBER} from ${zip}"
  install_text "${tmp}"
  rm -f "${tmp}"
  trap - EXIT
}

download() {
  local dest="$1"
  local tmp="${dest}.part.$$"
  mkdir -p "$(dirname "${dest}")"
  trap 'rm -f "${tmp}"' EXIT
  echo "downloading ${URL}" >&2
  if command -v curl >/dev/null 2>&1; then
    curl --fail --location --silent --show-error --connect-timeout 20 -o "${tmp}" "${URL}" ||
      die "cannot download ${URL} (offline?). Fetch spa-eng.zip elsewhere and run: \
scripts/get_data.sh /path/to/spa-eng.zip"
  elif command -v wget >/dev/null 2>&1; then
    wget --quiet --timeout=20 -O "${tmp}" "${URL}" ||
      die "cannot download ${URL} (offline?). Fetch spa-eng.zip elsewhere and run: \
scripts/get_data.sh /path/to/spa-eng.zip"
  else
    die "neither curl nor wget is installed; fetch ${URL} elsewhere and run: \
scripts/get_data.sh /path/to/spa-eng.zip"
  fi
  mv -f "${tmp}" "${dest}"
  trap - EXIT
}

main() {
  if [[ $# -gt 1 || "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    if [[ $# -gt 1 ]]; then
      usage >&2
      exit 2
    fi
    usage
    exit 0
  fi

  if [[ -f "${out_tsv}" && "$(sha256_of "${out_tsv}")" == "${TXT_SHA256}" ]]; then
    echo "already present: ${out_tsv} ($(count_lines "${out_tsv}") lines)"
    exit 0
  fi

  if [[ $# -eq 1 ]]; then
    local source="$1"
    [[ -e "${source}" ]] || die "${source}: no such file"
    [[ -f "${source}" && -r "${source}" ]] || die "${source}: not a readable file"
    case "${source}" in
      *.zip) install_zip "${source}" ;;
      *.tsv | *.txt) install_text "${source}" ;;
      *) die "${source}: expected spa-eng.zip or an extracted spa.txt/.tsv" ;;
    esac
  else
    local zip="${out_dir}/spa-eng.zip"
    if [[ ! -f "${zip}" || "$(sha256_of "${zip}")" != "${ZIP_SHA256}" ]]; then
      download "${zip}"
    fi
    install_zip "${zip}"
  fi

  local lines
  lines="$(count_lines "${out_tsv}")"
  [[ "${lines}" == "${LINES}" ]] || die "${out_tsv}: ${lines} lines, expected ${LINES}"
  report
}

main "$@"
