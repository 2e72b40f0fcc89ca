#!/bin/sh
# `gtsim run` options. Usage: run_options.sh GTSIM
# Oracles: the PCI ids of the two identities (BDW GT2 8086:1616, SKL GT2
# 8086:1912, as in the design), the environment variables the options set,
# and exit status 2 for a bad option.
gtsim=$1
fail=0
check() {  # check DESCRIPTION EXPECTED ACTUAL
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: expected '$2', got '$3'"
		fail=1
	fi
}
check "default device id" "0x1616" "$("$gtsim" run -- cat /sys/class/drm/renderD128/device/device)"
check "--device=skl id" "0x1912" "$("$gtsim" run --device=skl -- cat /sys/dev/char/226:128/device/device)"
check "--sync sets GTSIM_SYNC" "1" "$("$gtsim" run --sync -- sh -c 'echo $GTSIM_SYNC')"
check "--trace sets GTSIM_TRACE" "shim,stub" "$("$gtsim" run --trace=shim,stub -- sh -c 'echo $GTSIM_TRACE')"
traced=$("$gtsim" run --trace=shim -- cat /sys/class/drm/card0/device/vendor 2>&1 >/dev/null | grep -c '^\[shim\] open /sys/class/drm/card0/device/vendor')
check "--trace=shim traces the rewrite" "1" "$traced"
"$gtsim" run --device=nosuch -- true 2>/dev/null
check "unknown device" "2" "$?"
"$gtsim" run --trace=nosuch -- true 2>/dev/null
check "unknown trace category" "2" "$?"
"$gtsim" run --bogus -- true 2>/dev/null
check "unknown option" "2" "$?"
"$gtsim" run 2>/dev/null
check "no program" "2" "$?"
"$gtsim" run -- /nonexistent/program 2>/dev/null
check "program not found" "127" "$?"
"$gtsim" run -- sh -c 'exit 7'
check "the program's exit status" "7" "$?"
[ $fail -eq 0 ] && echo "all gtsim run option checks passed"
exit $fail
