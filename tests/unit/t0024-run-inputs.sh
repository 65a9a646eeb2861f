#!/bin/sh
# Hostile inputs to run and list that once hung, crashed or ran anyway:
# a FIFO or a device named *.wl, a workload named twice, a kernel that
# does not exist. Each must end at once with exit 2, naming the cause,
# before any run directory exists.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
cs=${CSBENCH_BUILD:-$top/build}/csbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/fifo" "$tmp/dev" "$tmp/res"
mkfifo "$tmp/fifo/x.wl"
timeout 10 "$cs" list --workload-dir "$tmp/fifo" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a FIFO named x.wl: list does not hang, exits 2 (got $code)" [ $code -eq 2 ]
tap_grep "and says it is not a regular file" "x.wl: not a regular file" "$tmp/err"
ln -s /dev/zero "$tmp/dev/z.wl"
timeout 10 "$cs" list --workload-dir "$tmp/dev" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a symlink to /dev/zero: refused, exit 2 (got $code)" [ $code -eq 2 ]

touch "$tmp/k" "$tmp/i" "$tmp/img"
mkdir "$tmp/bin"
timeout 10 "$cs" run --workloads cpu-vs-cpu,cpu-vs-cpu --kernel "$tmp/k" --initrd "$tmp/i" \
	--image "$tmp/img" --bin "$tmp/bin" --results "$tmp/res" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a workload named twice: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "and it is named" "'cpu-vs-cpu' is named twice" "$tmp/err"

timeout 10 "$cs" run --workloads cpu-vs-cpu --kernel "$tmp/nope" --initrd "$tmp/i" \
	--image "$tmp/img" --bin "$tmp/bin" --results "$tmp/res" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a missing --kernel: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "naming the file" "kernel $tmp/nope: No such file or directory" "$tmp/err"
timeout 10 "$cs" run --workloads cpu-vs-cpu --kernel "$tmp/k" --initrd "$tmp/i" \
	--image "$tmp/img" --bin "$tmp/k" --results "$tmp/res" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "--bin that is a file: exit 2 (got $code)" [ $code -eq 2 ]
tap_ok "no run directory was created" [ -z "$(ls "$tmp/res")" ]

# A malformed workload among others: refused naming file and line, and
# (in the sanitizer build, LeakSanitizer on) nothing of the listing leaks.
mkdir "$tmp/wl"
cp "$top/workloads/cpu-vs-cpu.wl" "$top/workloads/sync-heavy.wl" "$tmp/wl/"
printf 'name broken\nthreads 2\n' >"$tmp/wl/b-broken.wl"
timeout 20 "$cs" run --workload-dir "$tmp/wl" --kernel "$tmp/k" --initrd "$tmp/i" \
	--image "$tmp/img" --bin "$tmp/bin" --results "$tmp/res" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a malformed b-broken.wl: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "naming the file and line" "b-broken.wl:2:" "$tmp/err"
tap_ok "and no leak is reported" sh -c "! grep -q LeakSanitizer '$tmp/err'"
tap_ok "no run directory was created for it" [ -z "$(ls "$tmp/res")" ]

# --cloud-image: a file that is no disk image, a missing one, a clash.
printf 'not a disk' >"$tmp/notdisk.qcow2"
for bad in "$tmp/notdisk.qcow2:neither a qcow2 image nor a partitioned raw disk" \
	"$tmp/absent.qcow2:absent.qcow2: No such file or directory" \
	"$tmp/bin:not a regular file"; do
	timeout 10 "$cs" run --workloads cpu-vs-cpu --kernel "$tmp/k" --initrd "$tmp/i" \
		--cloud-image "${bad%%:*}" --bin "$tmp/bin" --results "$tmp/res" >/dev/null 2>"$tmp/err"
	code=$?
	tap_ok "--cloud-image $(basename "${bad%%:*}"): exit 2 (got $code)" [ $code -eq 2 ]
	tap_grep "saying why" "${bad#*:}" "$tmp/err"
done
timeout 10 "$cs" run --workloads cpu-vs-cpu --kernel "$tmp/k" --initrd "$tmp/i" \
	--image "$tmp/img" --cloud-image "$tmp/img" --bin "$tmp/bin" --results "$tmp/res" \
	>/dev/null 2>"$tmp/err"
code=$?
tap_ok "--image with --cloud-image: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "give one of them" "give one of them" "$tmp/err"
timeout 10 "$cs" run --workloads cpu-vs-cpu --kernel "$tmp/k" --initrd "$tmp/i" \
	--image "$tmp/img" --cloud-root /dev/vda2 --bin "$tmp/bin" --results "$tmp/res" \
	>/dev/null 2>"$tmp/err"
code=$?
tap_ok "--cloud-root without --cloud-image: exit 2 (got $code)" [ $code -eq 2 ]
tap_ok "still no run directory" [ -z "$(ls "$tmp/res")" ]

# Refused before anything is built, inspected or created: each of these
# once built the rootfs, read a cloud image, or made a run directory
# first. No --kernel or --image is given where a late check would build.
mkdir "$tmp/nowl"
refuse() {
	what=$1 expect=$2
	shift 2
	timeout 60 "$cs" run --results "$tmp/res" "$@" >"$tmp/out" 2>&1
	code=$?
	tap_ok "$what: exit 2 (got $code)" [ $code -eq 2 ]
	tap_grep "and says why" "$expect" "$tmp/out"
	tap_ok "having built and created nothing" \
		sh -c "! grep -q 'image: \|kernel: \|reading its format' '$tmp/out' &&
		       [ -z \"\$(ls '$tmp/res')\" ]"
}
refuse "--accel bogus" "--accel bogus: expected auto, tcg or kvm" --accel bogus
refuse "--workloads ''" "--workloads '': expected a comma-separated list" --workloads ''
refuse "--workloads a,,b" "--workloads a,,b: an empty name" --workloads a,,b
refuse "an empty --workload-dir" "--workload-dir $tmp/nowl: no .wl files" \
	--workload-dir "$tmp/nowl"
refuse "--cloud-image with a missing --kernel" "kernel $tmp/nope: No such file" \
	--kernel "$tmp/nope" --cloud-image "$tmp/img"
refuse "a missing --cloud-image" "cloud-image $tmp/nope: No such file" \
	--cloud-image "$tmp/nope"
refuse "--workloads .." "unknown workload '..'" --workloads .. --kernel "$tmp/k" \
	--initrd "$tmp/i" --image "$tmp/img" --bin "$tmp/bin"
refuse "--workloads --help" "unknown workload '--help'" --workloads=--help \
	--kernel "$tmp/k" --initrd "$tmp/i" --image "$tmp/img" --bin "$tmp/bin"

"$cs" --version >"$tmp/out" 2>&1
code=$?
tap_ok "csbench --version: exit 0 (got $code)" [ $code -eq 0 ]
tap_grep "and prints the version" "^csbench $(cat "$top/VERSION")\$" "$tmp/out"
"$cs" -h >"$tmp/out" 2>&1
code=$?
tap_ok "csbench -h: exit 0 (got $code)" [ $code -eq 0 ]
tap_done
