#!/bin/bash
# sandbox/reboot.sh DIR: what the host tools and a reboot would do to a
# sandbox root, which halo-provision never runs under --root:
#   1. regenerate: the kernel arguments the boot loader configuration now
#      gives go into /boot/grub/grub.cfg (update-grub) or into the options
#      line of every BLS entry (grubby --update-kernel=ALL);
#   2. reboot: they become /proc/cmdline; an amdgpu card, if the root has
#      one, reports the GTT size that ttm.pages_limit now gives.
set -euo pipefail
R=${1:?DIR}
old=$(cat "$R/proc/cmdline")
image=${old%% *}
root=$(grep -o 'root=[^ ]*' <<<"$old" | head -1)

if [ -f "$R/etc/kernel/cmdline" ]; then
	args=$(cat "$R/etc/kernel/cmdline")
	for entry in "$R"/boot/loader/entries/*.conf; do
		[ -e "$entry" ] || continue
		sed -i "s|^options .*|options $args|" "$entry"
	done
	new="$image $args"
else
	# What grub-mkconfig puts on the linux line, read by bash itself.
	args=$(cd "$R" && bash -c '. etc/default/grub
		for f in etc/default/grub.d/*.cfg; do [ -e "$f" ] && . "$f"; done
		echo "$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT"' 2>/dev/null)
	args=$(echo "$args" | tr -s ' ' | sed 's/^ //; s/ $//')
	if [ -f "$R/boot/grub/grub.cfg" ]; then
		sed -i -E "s|^(\tlinux\t[^ ]+ $root ro).*|\1 $args|" "$R/boot/grub/grub.cfg"
	fi
	new="$image $root ro $args"
fi
echo "$new" | tr -s ' ' | sed 's/ $//' >"$R/proc/cmdline"

pages=$(grep -o '\bttm\.pages_limit=[0-9]*' "$R/proc/cmdline" | cut -d= -f2 || true)
for card in "$R"/sys/class/drm/card*/device; do
	[ -n "$pages" ] && [ -e "$card/mem_info_gtt_total" ] || continue
	echo $((pages * 4096)) >"$card/mem_info_gtt_total"
done
