#!/bin/bash
# test_nvme_qemu.sh - drivebench's NVMe paths on emulated NVMe controllers:
# one QEMU (TCG) boot of a Debian cloud kernel with an initramfs holding the
# freshly built drivebench (and fio), running tests/nvme/guest.sh, whose
# results come back as a tar archive on a raw disk. See docs/nvme.md.
# A guest that does not boot or finish fails the test; nothing is skipped.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../cli/lib.sh"
# NVME_KEEP=1 keeps $TMP (console.log, the initramfs tree, results) to look at
[ -n "${NVME_KEEP:-}" ] && { trap - EXIT; echo "# kept: $TMP"; }
BUILD=$(dirname "$DB")
NV=$BUILD/nvme            # kernel package, unpacked (kept between runs)
start=$(date +%s)

fail_all() { not_ok "$*"; exit 1; }

for tool in qemu-system-x86_64 busybox cpio mkfs.ext4 sfdisk; do
	command -v $tool >/dev/null || fail_all "$tool is missing (make deps installs it)"
done
busybox --list | grep -qx sh || fail_all "busybox has no sh (busybox-static is wanted)"
ldd "$(command -v busybox)" >/dev/null 2>&1 && fail_all "busybox is not static (install busybox-static)"

# the kernel: Debian's cloud kernel, downloaded and unpacked, never installed
kernel=$(ls "$NV"/kernel/boot/vmlinuz-* 2>/dev/null | head -1)
if [ -z "$kernel" ]; then
	pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[^ ]*\)$/\1/p' | head -1)
	[ -n "$pkg" ] || fail_all "no linux-image-cloud-amd64 in apt (apt-get update?)"
	mkdir -p "$NV" && (cd "$NV" && apt-get download "$pkg" >/dev/null 2>&1) \
		|| fail_all "apt-get download $pkg failed"
	dpkg -x "$NV"/"$pkg"_*.deb "$NV/kernel" || fail_all "dpkg -x $pkg failed"
	kernel=$(ls "$NV"/kernel/boot/vmlinuz-* | head -1)
fi
[ -n "$kernel" ] || fail_all "no kernel in $NV/kernel/boot"

# the initramfs: busybox, drivebench, fio and the shared libraries they need
root=$TMP/root
mkdir -p $root/bin $root/sbin $root/proc $root/sys $root/dev $root/tmp
cp "$(command -v busybox)" $root/bin/busybox
for a in $(busybox --list | grep -vx busybox); do ln -sf busybox $root/bin/$a; done
strip -o $root/bin/drivebench "$DB" 2>/dev/null || cp "$DB" $root/bin/drivebench
bins=$DB
command -v fio >/dev/null && { cp "$(command -v fio)" $root/bin/fio; bins="$bins $(command -v fio)"; }
for lib in $(for b in $bins; do ldd "$b"; done | grep -o '/[^ ]*' | sort -u); do
	mkdir -p "$root$(dirname $lib)" && cp -L "$lib" "$root$lib"
done
cp "$here/guest.sh" $root/guest.sh
cp "$here"/guest_*.sh $root/
cp "$(command -v blkzone)" $root/bin/blkzone || fail_all "blkzone (util-linux) is missing"
cat >$root/init <<'INIT'
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
echo guest-booted
sh /guest.sh
echo guest-finished
poweroff -f
INIT
chmod +x $root/init $root/guest.sh
(cd $root && find . | cpio -o -H newc --quiet) >$TMP/initrd.cpio \
	|| fail_all "could not pack the initramfs"

# the namespaces, 64 MiB each. Controller A (serial DBNVME0A): nsid 1 with
# 512-byte blocks, nsid 2 with 4096-byte blocks. Controller B (DBNVME0B):
# nsid 1 carries ext4, nsid 2 a partition table with one ext4 partition,
# nsid 3 is zoned (4 MiB zones).
img() { truncate -s 64M $TMP/$1.img; }
img a1; img a2; img b1; img b2; img b3
mkfs.ext4 -q -F $TMP/b1.img || fail_all "mkfs.ext4 on the image failed"
echo 'start=2048, size=32768, type=83' | sfdisk -q $TMP/b2.img >/dev/null \
	|| fail_all "sfdisk on the image failed"
mkfs.ext4 -q -F -E offset=1048576 $TMP/b2.img 16M >/dev/null 2>&1 \
	|| fail_all "mkfs.ext4 in the image's partition failed"
truncate -s 64M $TMP/result.img
ns() { # NAME BUS NSID BLOCK [extra]
	# discard=unmap: a deallocate (Dataset Management) punches the image
	echo "-drive file=$TMP/$1.img,if=none,id=$1,format=raw,discard=unmap"
	echo "-device nvme-ns,drive=$1,bus=$2,nsid=$3,logical_block_size=$4,physical_block_size=$4$5"
}
# shellcheck disable=SC2046
qemu-system-x86_64 -machine q35 -accel tcg -m 1024 -smp 2 \
	-nodefaults -display none -no-reboot -serial file:$TMP/console.log \
	-kernel "$kernel" -initrd $TMP/initrd.cpio \
	-append "console=ttyS0 loglevel=4 panic=-1 rdinit=/init" \
	-device nvme,id=ca,serial=DBNVME0A -device nvme,id=cb,serial=DBNVME0B \
	$(ns a1 ca 1 512) $(ns a2 ca 2 4096) $(ns b1 cb 1 512) $(ns b2 cb 2 512) \
	$(ns b3 cb 3 4096 ,zoned=on,zoned.zone_size=4M) \
	-device nvme,id=cr,serial=DBRESULT $(ns result cr 1 512) >$TMP/qemu.log 2>&1 &
qpid=$!
# wait for QEMU to end (the guest powers off), at most 110 s; once the guest
# said it finished, 10 s more (a power-off that hangs does not hold the test)
qrc=124
for i in $(seq 1100); do
	if ! kill -0 $qpid 2>/dev/null; then wait $qpid; qrc=$?; break; fi
	if grep -q guest-finished $TMP/console.log 2>/dev/null; then
		fin=${fin:-$i}
		[ $((i - fin)) -ge 100 ] && { echo "# the guest finished but did not power off"; break; }
	fi
	sleep 0.1
done
kill -0 $qpid 2>/dev/null && { kill $qpid; wait $qpid; }
secs=$(( $(date +%s) - start ))
echo "# qemu exit $qrc, whole test ${secs}s"
grep -q guest-booted $TMP/console.log 2>/dev/null \
	|| { cat $TMP/qemu.log; grep -v '^\[ *[0-9.]*\]  ' $TMP/console.log | tail -30; fail_all "the guest did not boot (qemu exit $qrc)"; }
ok "guest booted"
grep -E '^[0-9.]+s ' $TMP/console.log | sed 's/^/# guest: /'
grep -q guest-finished $TMP/console.log \
	|| { tail -30 $TMP/console.log; fail_all "the guest script did not finish (qemu exit $qrc)"; }
mkdir -p $TMP/out && tar xf $TMP/result.img -C $TMP/out 2>/dev/null
R=$TMP/out/results
[ -e $R/guest-done ] || fail_all "no results came back from the guest"
ok "results came back (${secs}s in all)"
export R
. "$here/checks.sh"
