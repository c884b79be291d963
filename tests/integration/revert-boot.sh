#!/bin/bash
# revert-boot: --revert of the in-place GRUB_CMDLINE_LINUX edit and of
# /etc/kernel/cmdline. Only the tokens apply set go (an operator's later
# token or value stays); with nothing else changed the file comes back
# byte for byte; a revert then an apply converges again.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

R=$(boot_root grub grub)
G=$R/etc/default/grub
REC=$R/var/lib/halo-provision/cmdline-edits
cp "$G" "$TEST_TMP/grub.orig"
write_conf "$TEST_TMP/halo.conf" <<'CONF'
version = 1;
boot = { iommu = "pt"; pci_realloc = true; remove = [ "splash" ]; };
CONF
conf=(--root "$R" -c "$TEST_TMP/halo.conf")

run_halo "${conf[@]}"
is "$rc" 10 "apply: changed, reboot pending"
cp "$G" "$TEST_TMP/grub.applied"
ok "$([ -f "$REC" ] && head -1 "$REC" | grep -q 'Managed by halo-provision'; echo $?)" \
	"apply recorded its edit in an owned record"

# --dry-run --revert: every item shown, nothing written.
before=$(tree_snapshot "$R")
run_halo "${conf[@]}" --dry-run --revert --json
is "$rc" 10 "dry-run revert: 10 (drift, reboot would be required)"
is "$(tree_snapshot "$R")" "$before" "dry-run revert writes nothing"
is "$(printf '%s' "$out" | jq -r '[.items[] | select(.outcome == "drift") | .key] | sort | join(" ")')" \
	"boot/param/iommu boot/param/splash boot/remove/iommu=pt boot/remove/pci=realloc file/etc/default/grub file/var/lib/halo-provision/cmdline-edits file/var/lib/halo-provision/state.json" \
	"dry-run lists what it would put back, take out and remove"
run_halo "${conf[@]}" --dry-run --revert
like "$out" 'ok +file/etc/default/grub.d/zz-halo-provision.cfg' "text lists items in sync too"
like "$out" '^dry-run: revert, 9 items' "summary says revert"

# --revert: byte for byte (CRLF, quotes, comment, no final newline).
run_halo "${conf[@]}" --revert
is "$rc" 10 "revert: changed, reboot pending (iommu=soft is not active yet)"
cmp -s "$G" "$TEST_TMP/grub.orig"
ok $? "/etc/default/grub restored byte for byte"
ok "$([ ! -e "$REC" ] && [ ! -e "$R/var/lib/halo-provision/state.json" ]; echo $?)" \
	"record and state file removed"
run_halo "${conf[@]}" --revert
is "$rc" 0 "second revert: nothing left to do"

# A revert then an apply converges: the same file as the first apply,
# and the apply after it changes nothing.
run_halo "${conf[@]}"
is "$rc" 10 "apply after revert: 10"
cmp -s "$G" "$TEST_TMP/grub.applied"
ok $? "same /etc/default/grub as the first apply"
run_halo "${conf[@]}"
is "$rc" 8 "apply again: nothing changed (reboot still pending)"

# The operator adds a token and changes a value after the apply: both stay.
sed -i 's/pci=realloc"/pci=realloc site=1"/; s/iommu=pt/iommu=on/' "$G"
run_halo "${conf[@]}" --dry-run --revert
is "$rc" 2 "dry-run revert after operator edits: 2, as the revert (no reboot would be pending)"
run_halo "${conf[@]}" --revert
is "$rc" 2 "revert after operator edits: 2 (what it takes out was never active)"
got=$(tr -d '\r' <"$G" | sed -n 's/^GRUB_CMDLINE_LINUX=//p')
is "$got" '"${GRUB_EXTRA} iommu=on dyndbg=\"file x.c +p\" site=1"   # site params' \
	"pci=realloc taken out; operator's site=1 and iommu=on stay"
like "$(tr -d '\r' <"$G" | grep '^GRUB_CMDLINE_LINUX_DEFAULT=')" "^GRUB_CMDLINE_LINUX_DEFAULT='quiet splash'\$" \
	"the removed splash is back"
ok "$(bash -n <(tr -d '\r' <"$G"); echo $?)" "bash still parses the file"

# /etc/kernel/cmdline created by apply: revert removes it again.
K=$(boot_root kcmdline kc)
boot_image "$K"
rm -f "$K/etc/kernel/cmdline"
printf 'initrd=\\initrd.img root=LABEL=haloroot rw splash\n' >"$K/proc/cmdline"
write_conf "$TEST_TMP/k.conf" <<'CONF'
version = 1;
boot = { loader = "kernel-cmdline"; iommu = "pt"; };
CONF
run_halo --root "$K" -c "$TEST_TMP/k.conf"
is "$rc" 10 "kernel-cmdline apply: 10"
reboot_into "$K" "root=LABEL=haloroot rw splash iommu=pt"
run_halo --root "$K" -c "$TEST_TMP/k.conf" --revert --json
is "$rc" 10 "kernel-cmdline revert of an active parameter: 10 (reboot pending)"
is "$(printf '%s' "$out" | jq -r '.items[] | select(.key == "boot/remove/iommu=pt") | .outcome')" \
	pending-reboot "iommu=pt out of the file, active until reboot"
ok "$([ ! -e "$K/etc/kernel/cmdline" ]; echo $?)" "/etc/kernel/cmdline that apply created is gone"
# An existing one keeps the operator's tokens.
printf 'root=LABEL=haloroot rw quiet\n' >"$K/etc/kernel/cmdline"
run_halo --root "$K" -c "$TEST_TMP/k.conf"
sed -i 's/$/ op=1/' "$K/etc/kernel/cmdline"
run_halo --root "$K" -c "$TEST_TMP/k.conf" --revert
is "$(cat "$K/etc/kernel/cmdline")" "root=LABEL=haloroot rw quiet op=1" \
	"/etc/kernel/cmdline: iommu=pt out, the operator's op=1 stays"

# A record that does not decode (a "%" with one hex digit, at the very end:
# the old decoder read past the buffer) stops apply and revert alike:
# exit 1, one line naming it, nothing changed.
KR=$K/var/lib/halo-provision/cmdline-edits
run_halo --root "$K" -c "$TEST_TMP/k.conf"
printf '%s\n' "# Managed by halo-provision; local changes will be overwritten." >"$KR"
printf 'orig\t/etc/kernel/cmdline\t-\tquiet\tquiet%%4' >>"$KR"
before=$(tree_snapshot "$K")
for mode in "" --revert "--dry-run --revert"; do
	# shellcheck disable=SC2086
	run_halo --root "$K" -c "$TEST_TMP/k.conf" $mode
	is "$rc" 1 "a corrupt record: exit 1 (${mode:-apply})"
	like "$err" "cmdline-edits:2: not a record of command-line edits halo-provision can read" \
		"... naming the file and line (${mode:-apply})"
	is "$(grep -c . <<<"$err")" 1 "... in one line (${mode:-apply})"
done
is "$(tree_snapshot "$K")" "$before" "a corrupt record: nothing changed"

done_testing
