#!/bin/sh
# `gtsim run` from an installed layout: <prefix>/bin/gtsim finds the shim
# in <prefix>/lib/<multiarch>/gtsim/ (as `meson install` puts it), with no
# build tree next to it. Usage: run_installed.sh GTSIM SHIM_LIBRARY
gtsim=$1; shim=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
mkdir -p "$prefix/bin" "$prefix/lib/$multiarch/gtsim"
cp "$gtsim" "$prefix/bin/gtsim"
cp "$shim" "$prefix/lib/$multiarch/gtsim/"
out=$(env -u GTSIM_SHIM "$prefix/bin/gtsim" run -- stat -c '%F %t:%T' /dev/dri/renderD128)
echo "$out"
# char device 226:128, stat prints the numbers in hex
[ "$out" = "character special file e2:80" ]
