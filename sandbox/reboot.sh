#!/bin/bash
# sandbox/reboot.sh DIR: simulate a reboot of a sandbox root: the kernel
# command line the boot loader configuration now produces becomes
# DIR/proc/cmdline (what update-grub/grubby and a reboot would give).
set -euo pipefail
R=${1:?DIR}
old=$(cat "$R/proc/cmdline")
image=${old%% *}
root=$(grep -o 'root=[^ ]*' <<<"$old" | head -1)
if [ -f "$R/etc/kernel/cmdline" ]; then
	new="$image $(cat "$R/etc/kernel/cmdline")"
else
	# What grub-mkconfig would put on the linux line: read by bash itself.
	args=$(cd "$R" && bash -c '. etc/default/grub
		for f in etc/default/grub.d/*.cfg; do [ -e "$f" ] && . "$f"; done
		echo "$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT"' 2>/dev/null)
	new="$image $root ro $args"
fi
echo "$new" | tr -s ' ' | sed 's/ $//' >"$R/proc/cmdline"
