#!/bin/sh
# run-target.sh EXE NAME CORPUS BUILDDIR SECONDS [libFuzzer options...]
# Runs one libFuzzer target for SECONDS from the seeds of CORPUS (read
# only: new inputs go to BUILDDIR/work/NAME, crashers to
# BUILDDIR/artifacts/NAME-*). Exit status: libFuzzer's (0: nothing found).
set -e
exe=$1 name=$2 corpus=$3 build=$4 seconds=$5
shift 5
work=$build/work/$name
mkdir -p "$work" "$build/artifacts"
# Leaks are reported by libFuzzer itself at the end of an input; the
# engines' threads live as long as the device, which is made once.
exec "$exe" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 \
	-max_len=16384 -print_final_stats=1 \
	-artifact_prefix="$build/artifacts/$name-" "$@" "$work" "$corpus"
