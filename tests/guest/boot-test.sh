# Job for `make boot-test`: run by csbench-init inside the guest (sh -e),
# with the share as working directory and its bin/ on PATH.
echo "# kernel: $(uname -r)"
echo "# topology (lscpu -e):"
lscpu -e=CPU,CORE,SOCKET,ONLINE | sed 's/^/#   /'
echo "# smt/control: $(cat /sys/devices/system/cpu/smt/control)"
boot_checks
