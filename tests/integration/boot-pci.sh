#!/bin/bash
# pci= takes a comma list and the kernel reads every pci= token: making sure
# of pci=realloc must keep the host's own pci= options, and pci_realloc =
# false must take out realloc alone.
source "$top_srcdir/tests/lib/tap.sh"

R=$TEST_TMP/root
CONF=$TEST_TMP/halo.conf
"$top_srcdir/sandbox/mkroot.sh" debian "$R"
sed -i 's/^GRUB_CMDLINE_LINUX=""/GRUB_CMDLINE_LINUX="pci=noaer nomodeset"/' "$R/etc/default/grub"

# What grub-mkconfig would see, read by bash itself.
cmdline() {
	(cd "$R" && bash -c '. etc/default/grub; for f in etc/default/grub.d/*.cfg; do . "$f"; done
		echo $GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT')
}

write_conf "$CONF" <<<'version = 1; boot = { pci_realloc = true; };'
run_halo --root "$R" -c "$CONF"
is "$rc" 10 "pci_realloc = true: changed, reboot pending"
is "$(cmdline)" "pci=noaer,realloc nomodeset console=tty1 console=ttyS0 quiet" \
	"pci=noaer is kept, realloc joins it"
run_halo --root "$R" -c "$CONF" --json
is "$(jq -r '.items[] | select(.key == "boot/param/pci") | .outcome' <<<"$out")" pending-reboot \
	"a second apply: the pci item is configured, only pending"
is "$(jq '.stats.files_written' <<<"$out")" 0 "... and nothing is written"

write_conf "$CONF" <<<'version = 1; boot = { pci_realloc = false; };'
run_halo --root "$R" -c "$CONF"
is "$rc" 10 "pci_realloc = false: changed"
is "$(cmdline)" "pci=noaer nomodeset console=tty1 console=ttyS0 quiet" \
	"realloc alone is taken out, pci=noaer stays"

done_testing
