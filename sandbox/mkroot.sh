#!/bin/bash
# sandbox/mkroot.sh debian|fedora DIR: a throwaway root shaped like a fresh
# Strix Halo node (128 GiB of RAM) of that distribution. Also used by tests.
set -euo pipefail
kind=${1:?debian|fedora}
R=${2:?DIR}
mkdir -p "$R"/{etc/halo-provision,etc/default,proc,run,var/lib,boot,sys/module,sys/class/drm}
# AMD-Vi on in the firmware: the kernel lists IOMMU groups whatever
# iommu= says (ready/iommu wants some for iommu=pt).
mkdir -p "$R"/sys/kernel/iommu_groups/{0,1,2,3}/devices

# 128 GiB board with 512 MiB of BIOS UMA carve-out.
cat >"$R/proc/meminfo" <<'MEM'
MemTotal:       133693440 kB
MemFree:        131200000 kB
MemAvailable:   131500000 kB
Buffers:            4096 kB
Cached:           512000 kB
SwapTotal:             0 kB
SwapFree:              0 kB
MEM

# The groups of a fresh install the access section names (render owns
# /dev/kfd and the render nodes).
printf 'root:x:0:\nvideo:x:44:\nrender:x:105:\n' >"$R/etc/group"

# The Radeon 8060S iGPU is card1 (card0 is the EFI framebuffer: never
# assume card0); amdgpu reports GTT in bytes, by default half of RAM, and
# the BIOS carve-out as VRAM (512 MiB, the smallest the BIOS offers).
mkdir -p "$R/sys/class/drm/card0/device" "$R/sys/class/drm/card1/device"
printf 'DRIVER=simple-framebuffer\n' >"$R/sys/class/drm/card0/device/uevent"
printf 'DRIVER=amdgpu\nPCI_CLASS=38000\nPCI_ID=1002:1586\n' >"$R/sys/class/drm/card1/device/uevent"
echo $((133693440 * 1024 / 2)) >"$R/sys/class/drm/card1/device/mem_info_gtt_total"
echo $((512 << 20)) >"$R/sys/class/drm/card1/device/mem_info_vram_total"

case "$kind" in
debian)
	kver=6.12.48+deb12-amd64
	uuid=5b6f2c0e-4a1d-4d35-9f57-0d6b1a2c3e4f
	cat >"$R/etc/os-release" <<'OS'
PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
ID=debian
OS
	cat >"$R/etc/default/grub" <<'GRUB'
# If you change this file, run 'update-grub' afterwards to update
# /boot/grub/grub.cfg.
# For full documentation of the options in this file, see:
#   info -f grub -n 'Simple configuration'

GRUB_DEFAULT=0
GRUB_TIMEOUT=5
GRUB_DISTRIBUTOR=`( . /etc/os-release; echo ${NAME:-Debian} ) 2>/dev/null || echo Debian`
GRUB_CMDLINE_LINUX_DEFAULT="quiet"
GRUB_CMDLINE_LINUX=""
GRUB
	# Cloud images replace GRUB_CMDLINE_LINUX_DEFAULT in an earlier drop-in.
	mkdir -p "$R/etc/default/grub.d"
	cat >"$R/etc/default/grub.d/50-cloudimg-settings.cfg" <<'CLOUD'
# Cloud-image settings
GRUB_CMDLINE_LINUX_DEFAULT="console=tty1 console=ttyS0 quiet"
CLOUD
	mkdir -p "$R/boot/grub"
	cat >"$R/boot/grub/grub.cfg" <<CFG
### BEGIN /etc/grub.d/10_linux ###
menuentry 'Debian GNU/Linux' --class debian {
	linux	/boot/vmlinuz-$kver root=UUID=$uuid ro  console=tty1 console=ttyS0 quiet
	initrd	/boot/initrd.img-$kver
}
### END /etc/grub.d/10_linux ###
CFG
	echo "BOOT_IMAGE=/boot/vmlinuz-$kver root=UUID=$uuid ro console=tty1 console=ttyS0 quiet" >"$R/proc/cmdline"
	;;
fedora)
	kver=6.18.5-200.fc43.x86_64
	# The root file system is an image inside the root (under --root
	# nothing outside it is read); libblkid resolves root=UUID= through
	# the cache inside the root, which names it by its in-root path
	# (blkid -c would record the host path).
	img=/dev/halo-rootfs.img
	mkdir -p "$R/dev" "$R/run/blkid"
	rm -f "$R$img"
	truncate -s 8M "$R$img"
	mkfs.ext4 -q -F -L fedora "$R$img"
	uuid=$(blkid -p -o value -s UUID "$R$img")
	printf '<device DEVNO="0x0000" TIME="1700000000.1" LABEL="fedora" UUID="%s" TYPE="ext4">%s</device>\n' \
		"$uuid" "$img" >"$R/run/blkid/blkid.tab"
	cat >"$R/etc/os-release" <<'OS'
NAME="Fedora Linux"
VERSION_ID=43
ID=fedora
OS
	cat >"$R/etc/default/grub" <<'GRUB'
GRUB_TIMEOUT=5
GRUB_DISTRIBUTOR="$(sed 's, release .*$,,g' /etc/system-release)"
GRUB_DEFAULT=saved
GRUB_DISABLE_SUBMENU=true
GRUB_TERMINAL_OUTPUT="console"
GRUB_CMDLINE_LINUX="rhgb quiet"
GRUB_DISABLE_RECOVERY="true"
GRUB_ENABLE_BLSCFG=true
GRUB
	mid=8f2a6f1c0d3b4e5fa6b7c8d9e0f1a2b3
	echo "$mid" >"$R/etc/machine-id"
	mkdir -p "$R/boot/loader/entries" "$R/boot/grub2" "$R/etc/kernel"
	cat >"$R/boot/loader/entries/$mid-$kver.conf" <<BLS
title Fedora Linux ($kver) 43 (Server Edition)
version $kver
linux /vmlinuz-$kver
initrd /initramfs-$kver.img
options root=UUID=$uuid ro rootflags=subvol=root rhgb quiet
grub_users \$grub_users
grub_arg --unrestricted
grub_class fedora
BLS
	echo "root=UUID=$uuid ro rootflags=subvol=root rhgb quiet" >"$R/etc/kernel/cmdline"
	echo "saved_entry=$mid-$kver" >"$R/boot/grub2/grubenv"
	echo "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-$kver root=UUID=$uuid ro rootflags=subvol=root rhgb quiet" >"$R/proc/cmdline"
	;;
*)
	echo "mkroot.sh: unknown kind '$kind'" >&2
	exit 1
	;;
esac
