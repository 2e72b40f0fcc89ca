#!/bin/sh
# run-target.sh [--fresh] EXE NAME CORPUS OUTDIR SECONDS [libFuzzer options...]
# Runs one libFuzzer target for SECONDS from the seeds of CORPUS, which it
# only reads: new inputs go to OUTDIR/work/NAME (kept from run to run, so
# `make fuzz` goes on where it stopped), crashers to OUTDIR/artifacts/
# NAME-crash-*, -timeout-*, -leak-*. --fresh: new inputs go to a temporary
# folder removed afterwards (the short runs of `make check`, which then
# take the same time every run). Exit status: libFuzzer's, 0 when nothing
# was found.
set -e
fresh=
if [ "$1" = --fresh ]; then
	fresh=1
	shift
fi
exe=$1 name=$2 corpus=$3 out=$4 seconds=$5
shift 5
mkdir -p "$out/artifacts"
slow=
if [ -n "$fresh" ]; then
	slow=-timeout_exitcode=0
	work=$(mktemp -d "${TMPDIR:-/tmp}/gtsim-fuzz-$name.XXXXXX")
	trap 'rm -rf "$work"' EXIT
else
	work=$out/work/$name
	mkdir -p "$work"
fi
# -timeout: an input running 20 s is a hang (the device's hangcheck ends a
# hung batch in tens of ms, an EU thread looping inside a command too: the
# reset stops the command; docs/fuzzing.md, finding 8). A legitimate but
# huge command is slow without hanging: a walker of 66 million thread groups
# whose threads all end makes progress and is not reset (nor is it on i915,
# whose heartbeat preempts it). In the short runs of `make check` (--fresh)
# such a slow input is written to the artifacts and reported, not counted as
# a failure; `make fuzz` still fails on it.
# -rss_limit_mb: a runaway allocation is a find.
# -len_control=0: long inputs from the start (an input is a sequence of
# calls or commands: longer ones reach further). Not exec'd, so that the
# trap removes the temporary folder.
# -entropic=0 for draw: with entropic scheduling (libFuzzer's default) its
# inputs, each of tens of thousands of features, spent half the time in
# InputCorpus::UpdateFeatureFrequency (perf) and ran 3 a second; without,
# 97 a second (the same 90 s from the same seeds, 2026-11-29). execbuf
# runs as fast either way.
schedule=
[ "$name" = draw ] && schedule=-entropic=0
# UBSan reports end the run with the input kept, as ASan's do (clang's
# UBSan otherwise prints and goes on: finding 21 was a report in the log of
# a run that went on, its input not written).
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
"$exe" $schedule -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -max_len=16384 -len_control=0 \
	-print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" $slow "$@" "$work" "$corpus"
