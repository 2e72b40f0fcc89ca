#!/bin/sh
# Runs a real client (an installed program) under `gtsim run` and checks its
# output. Usage: run_client.sh GTSIM CHECK PROGRAM [ARGS...]
#   CHECK  "figures": exit 0 and at least one line starting with a number
#          (IGT benchmarks print their µs figures so)
#          "exit0": exit 0 (a test program of our own with its checks)
#          "igt": exit 0, and a skip (77) fails too: an IGT program whose
#          requirements real hardware meets must not skip on gtsim
#          "iris": exit status ignored; the Surfaceless platform section of
#          eglinfo reports EGL driver name iris
# Exits 77 (skip) when the program is not installed, or when it failed after
# reaching an ioctl the kernel model does not implement yet (named on
# stdout: the remaining blocker).
gtsim=$1; check=$2; prog=$3; shift 3
if [ ! -x "$prog" ] && ! command -v "$prog" >/dev/null 2>&1; then
	echo "SKIP: $prog is not installed"
	exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Foreign programs' own leaks are not gtsim's (ASan builds).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
GTSIM_TRACE="${GTSIM_TRACE:+$GTSIM_TRACE,}stub" timeout -k 10 300 "$gtsim" run -- "$prog" "$@" >"$log" 2>&1 &
pid=$!
# An IGT program that failed an assertion prints a stack trace with libdw,
# which can deadlock inside the C library under AddressSanitizer; once the
# failure is printed, give it a few seconds to exit, then stop it.
waited=0
while kill -0 $pid 2>/dev/null; do
	if grep -q 'CRITICAL: Test assertion failure' "$log"; then
		waited=$((waited + 1))
		if [ $waited -gt 10 ]; then
			kill $pid 2>/dev/null   # timeout passes SIGTERM on to the program
			break
		fi
	fi
	sleep 0.5
done
wait $pid
rc=$?
cat "$log"
stubs=$(grep -o '\[stub\] ioctl [a-z0-9_]* not implemented' "$log" | sort -u | awk '{print $3}' | tr '\n' ' ')
case "$check" in
figures)
	if [ $rc -eq 0 ] && grep -Eq '^ *[0-9]+(\.[0-9]+)?' "$log"; then
		exit 0
	fi
	[ $rc -eq 77 ] && exit 77;;
exit0)
	[ $rc -eq 0 ] && exit 0
	[ $rc -eq 77 ] && exit 77;;
igt)
	[ $rc -eq 0 ] && exit 0
	echo "FAIL: exit status $rc (77: an IGT requirement was not met)"
	exit 1;;
iris)
	if sed -n '/^Surfaceless platform:/,/^$/p' "$log" | grep -q 'EGL driver name: iris'; then
		exit 0
	fi;;
*)
	echo "run_client.sh: unknown check $check"; exit 2;;
esac
if [ -n "$stubs" ]; then
	echo "SKIP: blocked by ioctls the kernel model does not implement yet: $stubs"
	exit 77
fi
echo "FAIL: exit status $rc"
exit 1
