#!/bin/bash
# boot-cmdline-size: a merged kernel command line longer than the
# architecture's COMMAND_LINE_SIZE (the kernel's buffer, its terminating
# NUL included; 2048 on x86 and arm64) would be cut by the kernel, losing
# the parameters at its end. It is refused before anything changes: exit
# 1, one line naming the length and the limit. Exactly the limit is fine.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

# The table of src/boot/cmdline.h, by the machine the tests run on (the
# build's own architecture).
case "$(uname -m)" in
x86_64 | i?86) LIMIT=2048 ARCH=x86 ;;
aarch64) LIMIT=2048 ARCH=arm64 ;;
arm*) LIMIT=1024 ARCH=arm ;;
ppc*) LIMIT=2048 ARCH=powerpc ;;
riscv*) LIMIT=1024 ARCH=riscv ;;
s390*) LIMIT=4096 ARCH=s390 ;;
mips*) LIMIT=4096 ARCH=mips ;;
loongarch*) LIMIT=4096 ARCH=loongarch ;;
*) LIMIT=512 ARCH="this architecture" ;;
esac

# conf_with_pad FILE PAD_LEN: iommu=pt plus one "pad=xxx..." parameter.
conf_with_pad() {
	write_conf "$1" <<CONF
version = 1;
boot = { iommu = "pt"; extra = [ "pad=$(printf '%*s' "$2" '' | tr ' ' x)" ]; };
CONF
}

snapshot() {
	tree_snapshot "$1" | grep -v '\./run/halo-provision\.lock$'
}

# The drop-in backend on the Ubuntu-like root: the command line the files
# give is the cloud image's "console=tty1 console=ttyS0", then ours.
BASE="console=tty1 console=ttyS0 iommu=pt pad="
PAD=$((LIMIT - ${#BASE} - 1))   # the NUL takes the last byte

R=$(boot_root debian over)
conf_with_pad "$TEST_TMP/over.conf" $((PAD + 1))
before=$(snapshot "$R")
for mode in --dry-run ""; do
	run_halo --root "$R" -c "$TEST_TMP/over.conf" $mode
	is "$rc" 1 "one byte over the limit${mode:+ ($mode)}: exit 1"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "one byte over${mode:+ ($mode)}: one line"
	like "$err" "/etc/default/grub.d/zz-halo-provision.cfg: the kernel command line would be $((LIMIT + 1)) bytes \(with its terminating NUL\), over the limit of $LIMIT bytes on $ARCH \(COMMAND_LINE_SIZE\)$" \
		"one byte over${mode:+ ($mode)}: names the length and the limit"
done
is "$(snapshot "$R")" "$before" "one byte over: nothing changed"

R=$(boot_root debian fits)
conf_with_pad "$TEST_TMP/fits.conf" "$PAD"
run_halo --root "$R" -c "$TEST_TMP/fits.conf"
is "$rc" 10 "exactly the limit: applied (10)"
got=$(grub_cmdline "$R")
is "$((${#got} + 1))" "$LIMIT" "bash reads a command line of exactly $LIMIT bytes with its NUL"

# The Fedora root: /etc/kernel/cmdline is checked, and so is the default
# BLS entry as grubby would leave it (its options may be longer than the
# file's: here it also carries a long option of its own).
R=$(boot_root fedora bls)
boot_image "$R"
ENTRY=$(ls "$R"/boot/loader/entries/*.conf)
KC=$(cat "$R/etc/kernel/cmdline")
BASE="$KC iommu=pt pad="
PAD=$((LIMIT - ${#BASE} - 1))
conf_with_pad "$TEST_TMP/bls-over.conf" $((PAD + 1))
before=$(snapshot "$R")
run_halo --root "$R" -c "$TEST_TMP/bls-over.conf"
is "$rc" 1 "BLS, one byte over: exit 1"
like "$err" "/etc/kernel/cmdline: the kernel command line would be $((LIMIT + 1)) bytes .*limit of $LIMIT bytes" \
	"BLS, one byte over: /etc/kernel/cmdline named"
is "$(snapshot "$R")" "$before" "BLS, one byte over: nothing changed"

sed -i 's/^options .*/& resume=UUID=0f0e0d0c-0b0a-4908-8706-050403020100/' "$ENTRY"
conf_with_pad "$TEST_TMP/bls-fits.conf" "$PAD"
before=$(snapshot "$R")
run_halo --root "$R" -c "$TEST_TMP/bls-fits.conf"
is "$rc" 1 "BLS entry over the limit once grubby adds the parameters: exit 1"
like "$err" "/boot/loader/entries/[^ ]*\.conf: the kernel command line would be $((LIMIT + 49)) bytes" \
	"the entry is named, with its own length"
is "$(snapshot "$R")" "$before" "BLS entry over: nothing changed"

done_testing
