#!/bin/sh
# csbench-cloud-provision: run by cloud-init (runcmd, guest-image/cloud/
# user-data) in a cloud-image guest once the host's share is mounted at
# /csbench. Installs the benchmark tools offline from the host's package
# repository (the read-only share csbench-debs, scripts/cloud-debs.sh),
# stamps the image as provisioned, and queues csbench-agent.service, which
# runs csbench-init --service after cloud-init's last stage.
#
# A failure powers the guest off at once, with the cause on the console and
# in provision.log on the share: the host reports it instead of waiting for
# its hang timeout.
set -eu
REPO=/csbench-debs
LOG=/csbench/provision.log
exec >>"$LOG" 2>&1

console() {
	echo "csbench-cloud: $*" >/dev/console
	echo "$*"
}
failed() {
	status=$?
	[ "$status" -eq 0 ] && return
	console "provisioning failed (exit $status; see share/provision.log): $step"
	sync
	echo o >/proc/sysrq-trigger 2>/dev/null || poweroff -f
}
trap failed EXIT

step="mount the package share"
mkdir -p "$REPO"
mountpoint -q "$REPO" || mount -t 9p -o trans=virtio,version=9p2000.L,ro csbench-debs "$REPO"
packages=$(cat "$REPO/packages.txt")

# Only the offline repository: the image's own sources need a network. The
# guest clock may lag the Release file's date, which is no reason to stop.
step="index the offline repository"
mkdir -p /etc/apt/csbench-empty.d
echo "deb [trusted=yes] file:$REPO ./" >/etc/apt/csbench-offline.list
set -- -o Dir::Etc::SourceList=/etc/apt/csbench-offline.list \
	-o Dir::Etc::SourceParts=/etc/apt/csbench-empty.d \
	-o Acquire::Check-Date=false -o Acquire::Languages=none
start=$(date +%s)
apt-get "$@" update

step="install $packages"
console "installing $packages offline"
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get "$@" install -y --no-install-recommends $packages
mkdir -p /var/lib/csbench
# shellcheck disable=SC2086
echo "$(dpkg-query -W -f='${Package}=${Version} ' $packages)in $(($(date +%s) - start))s" \
	>/var/lib/csbench/provisioned

step="queue csbench-agent.service"
cat >/run/systemd/system/csbench-agent.service <<'UNIT'
[Unit]
Description=csbench agent: the host's job, then power off
After=cloud-final.service

[Service]
Type=oneshot
# cloud-init's own account of the boot, for the run's manifest.
ExecStartPre=-/bin/sh -c 'cloud-init status --long >/csbench/cloud-init-status.txt 2>&1; cp /run/cloud-init/result.json /csbench/cloud-init-result.json'
ExecStart=/csbench/bin/csbench-init --service
StandardOutput=journal+console
StandardError=journal+console
UNIT
systemctl daemon-reload
# No --wait: this runs inside cloud-final, which the unit waits for.
systemctl start --no-block csbench-agent.service
console "provisioned in $(($(date +%s) - start))s; agent queued"
