#!/bin/sh
# Build the kernel at every prefix of the patch series (patch 1, patches
# 1-2, ...) so a series that only builds as a whole is caught. Each prefix
# is an ordinary PATCHSET=DIR build with its own cache entry; ccache makes
# all but the first cheap. Then the whole series once more without the cpu
# controller (FLAVOR=nocgroup: CONFIG_SCHED_CORE=y, CONFIG_CGROUP_SCHED=n).
# Prints one line per build.
set -eu
STAGE=bisect
. "$(dirname "$0")/common.sh"

PATCHSET=${PATCHSET:-$TOP/patchset}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
patches=$(sed -e 's/#.*//' "$PATCHSET/series" | tr -s ' \t' '\n' | grep -v '^$')
total=$(echo "$patches" | wc -l)
rev=$(cat "$PATCHSET/REVISION" 2>/dev/null || echo unknown)

k=0
for p in $patches; do
	k=$((k + 1))
	dir=$work/prefix-$k
	mkdir -p "$dir"
	echo "$patches" | head -n "$k" >"$dir/series"
	for q in $(cat "$dir/series"); do
		cp "$PATCHSET/$q" "$dir/"
	done
	# The whole series is the ordinary build: same name, same cache entry.
	if [ "$k" -eq "$total" ]; then
		echo "$rev" >"$dir/REVISION"
	else
		echo "$rev-bisect-$k" >"$dir/REVISION"
	fi
	if entry=$(PATCHSET=$dir "$TOP/scripts/kernel-build.sh"); then
		echo "ok $k/$total builds: $p ($entry)"
	else
		echo "not ok $k/$total does not build: $p"
		exit 1
	fi
done

# The whole series without the cpu controller, where cpu.tag does not
# exist: a copy of the build scripts whose csbench.config ends with
# patchset/config/nocgroup.config (kernel-build.sh itself stays as it is,
# so no other cache entry changes key).
nocg=$work/nocgroup
mkdir -p "$nocg/patchset/series"
cp -r "$TOP/scripts" "$nocg/"
cp -r "$TOP/patchset/config" "$nocg/patchset/"
cat "$TOP/patchset/config/nocgroup.config" >>"$nocg/patchset/config/csbench.config"
cp "$TOP/patchset/config/required-nocgroup.txt" "$nocg/patchset/config/required.txt"
for q in $patches; do
	cp "$PATCHSET/$q" "$nocg/patchset/series/"
done
echo "$patches" >"$nocg/patchset/series/series"
echo "$rev-nocgroup" >"$nocg/patchset/series/REVISION"
if entry=$(PATCHSET=$nocg/patchset/series "$nocg/scripts/kernel-build.sh"); then
	echo "ok the whole series builds with CONFIG_CGROUP_SCHED=n ($entry)"
else
	echo "not ok the whole series does not build with CONFIG_CGROUP_SCHED=n"
	exit 1
fi
