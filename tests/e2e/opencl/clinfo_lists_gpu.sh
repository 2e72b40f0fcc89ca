#!/bin/sh
# clinfo under `gtsim run`: Intel's compute runtime (intel-opencl-icd) finds
# the modelled GPU and lists it as an OpenCL GPU device: the Skylake GT2 of
# src/common/devinfo.c, PCI ID 0x1912 (issue 12: "clinfo lists the Intel
# GPU device"). Usage: clinfo_lists_gpu.sh GTSIM
gtsim=$1
if ! command -v clinfo >/dev/null 2>&1; then
	echo "SKIP: clinfo is not installed"
	exit 77
fi
list=$(timeout -k 10 300 "$gtsim" run --device=skl -- clinfo -l 2>&1)
echo "$list"
echo "$list" | grep -q 'Device #0: Intel(R) .*\[0x1912\]' || exit 1
type=$(timeout -k 10 300 "$gtsim" run --device=skl -- clinfo -d 0:0 --prop CL_DEVICE_TYPE 2>&1)
echo "$type"
echo "$type" | grep -q 'CL_DEVICE_TYPE *CL_DEVICE_TYPE_GPU$' || exit 1
