#!/usr/bin/env bash
# Packs the Debian libraries that Atento builds against, other than LibTorch, into one relocatable
# folder for a GPU machine without a package registry (scripts/gpu_check.sh --deps DIR):
# SentencePiece, CLI11, nlohmann_json, ICU, libxml2, OpenSSL's libcrypto and GoogleTest, as
# include/, lib/ (shared libraries; GoogleTest static), lib/pkgconfig/ and share/cmake/.
# usage: scripts/pack_gpu_deps.sh DIR [--xz FILE]   (--xz also writes DIR as FILE.tar.xz: ~13 MB
#        against ~60 MB unpacked, for a device whose working tree is size-limited)
# Needs: libsentencepiece-dev libcli11-dev nlohmann-json3-dev libicu-dev libxml2-dev libssl-dev
# libgtest-dev (scripts/setup.sh installs them).
set -euo pipefail
dir=${1:?usage: pack_gpu_deps.sh DIR [--xz FILE]}
xz=""
if [ $# -ge 3 ] && [ "$2" = --xz ]; then xz=$3; elif [ $# -ne 1 ]; then
  echo "usage: pack_gpu_deps.sh DIR [--xz FILE]" >&2; exit 2
fi
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
lib=/usr/lib/$arch
for header in sentencepiece_processor.h CLI/CLI.hpp nlohmann/json.hpp unicode/brkiter.h \
              libxml2/libxml/HTMLparser.h openssl/evp.h gtest/gtest.h; do
  [ -e "/usr/include/$header" ] || { echo "error: /usr/include/$header missing (see the header of $0)" >&2; exit 1; }
done
mkdir -p "$dir/include/openssl" "$dir/lib/pkgconfig" "$dir/share/cmake"
cp /usr/include/sentencepiece_processor.h /usr/include/sentencepiece_trainer.h "$dir/include/"
cp -r /usr/include/CLI /usr/include/nlohmann /usr/include/unicode /usr/include/libxml2 \
      /usr/include/gtest "$dir/include/"
# OpenSSL splits its headers between the generic and the architecture's folder.
cp -r /usr/include/openssl/. "$dir/include/openssl/"
[ -d "/usr/include/$arch/openssl" ] && cp -r "/usr/include/$arch/openssl/." "$dir/include/openssl/"
cp -a "$lib"/libsentencepiece*.so* "$lib"/libicuuc.so* "$lib"/libicui18n.so* "$lib"/libicudata.so* \
      "$lib"/libxml2.so* "$lib"/libcrypto.so* "$lib"/libgtest.a "$lib"/libgtest_main.a "$dir/lib/"
cp -r /usr/share/cmake/CLI11 /usr/share/cmake/nlohmann_json "$dir/share/cmake/"
# pkg-config's prefix relative to the .pc file, so the folder can move.
sed 's#^prefix=.*#prefix=${pcfiledir}/../..#; s#^libdir=.*#libdir=${prefix}/lib#; s#^includedir=.*#includedir=${prefix}/include#' \
  "$lib/pkgconfig/sentencepiece.pc" >"$dir/lib/pkgconfig/sentencepiece.pc"
if [ -n "$xz" ]; then
  tar -cJf "$xz" -C "$(dirname "$dir")" "$(basename "$dir")"
  echo "packed $(du -sh "$dir" | cut -f1) into $xz ($(du -sh "$xz" | cut -f1))"
else
  echo "packed $(du -sh "$dir" | cut -f1) into $dir"
fi
