#!/bin/sh
# The cloud-image path end to end at smoke size, on the stand-in image
# (make cloud-image) booted exactly as a downloaded genericcloud qcow2 is:
# csbench run --cloud-image, one workload in two modes, one block. The
# agent must run from the image's systemd unit after cloud-init provisioned
# it offline (csbench verify checks the manifest's record of every boot),
# the manifest names the image and its checksum, the report says which
# image, and the image file is byte-identical afterwards. TAP.
#   tests/cloud/cloud-smoke.sh OUT KERNEL INITRD CLOUD-IMAGE BIN
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
out=$1 kernel=$2 initrd=$3 image=$4 bin=$5
rm -rf "$out" && mkdir -p "$out"
csbench=${CSBENCH_BUILD:-$top/build}/csbench

before=$(sha256sum <"$image" | cut -d' ' -f1)
"$csbench" run --profile smoke --reps 1 --workloads cpu-vs-cpu --modes smt-off,coresched \
	--accel tcg --results "$out" --rev cloud-smoke --report --kernel "$kernel" \
	--initrd "$initrd" --cloud-image "$image" --bin "$bin" >"$out/run.log" 2>&1
code=$?
tap_ok "csbench run --cloud-image exits 0 (got $code; log $out/run.log)" [ $code -eq 0 ]
dir=$(ls -d "$out"/2* 2>/dev/null | head -n 1)
man=$dir/manifest.json
tap_ok "a run directory with a manifest" test -s "$man"
"$csbench" verify "$dir" >"$out/verify.txt" 2>&1
code=$?
tap_ok "csbench verify passes: every cell ok, every boot ran from the provisioned image (got $code)" \
	[ $code -eq 0 ]
[ $code -eq 0 ] || sed 's/^/#   /' "$out/verify.txt"
tap_ok "manifest: image kind cloud, qcow2" \
	[ "$(jq -r '.image.kind + " " + .image.format' "$man" 2>/dev/null)" = "cloud qcow2" ]
tap_ok "manifest: the image's sha256 before and after the run, unchanged" \
	[ "$(jq -r '.image.sha256 + " " + .image.sha256_after' "$man" 2>/dev/null)" = "$before $before" ]
tap_ok "manifest: cloud-init finished with no errors in every boot" \
	[ "$(jq -r '[.image.boots[] | select(.cloud_init_status == "done" and (.cloud_init_errors | length) == 0)] | length' "$man" 2>/dev/null)" = \
	  "$(jq -r '.image.boots | length' "$man" 2>/dev/null)" ]
tap_ok "manifest: the job ran under systemd from the provisioned image" \
	[ "$(jq -r '.image.boots[0] | .pid1 + " " + .runner' "$man" 2>/dev/null)" = "systemd service" ]
tap_grep "the report says which image" "cloud image .*$(basename "$image")" "$dir/report.md"
after=$(sha256sum <"$image" | cut -d' ' -f1)
tap_ok "the image file is byte-identical after the run" [ "$before" = "$after" ]
tap_grep "boot-to-agent time recorded" "^boot_to_init_s=[0-9]" "$dir/boot.info"
tap_done
