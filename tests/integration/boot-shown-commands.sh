#!/bin/bash
# boot-shown-commands: every regeneration command shown for an operator
# to paste (the boot/regenerate item's wanted value and its "run ... in
# the image" message under --root, in dry-run and apply) is shell-quoted:
# pasted into bash, the tool gets exactly the argv halo-provision would
# have run. Stub tools on PATH print the argv they get.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/fixtures/boot/lib.sh"

STUBS=$TEST_TMP/stubs
mkdir -p "$STUBS"
for tool in grubby update-grub grub2-mkconfig grub-mkconfig; do
	printf '#!/bin/bash\nprintf "<%%s>\\n" "$(basename "$0")" "$@"\n' >"$STUBS/$tool"
	chmod 0755 "$STUBS/$tool"
done

# pasted CMD: what the tool gets when CMD is pasted into bash.
pasted() {
	PATH="$STUBS:$PATH" bash -c "$1" 2>&1
}

# regen_wanted JSON: the boot/regenerate item's wanted value, the command
# to run in the image.
regen_wanted() {
	printf '%s' "$1" | jq -r '.items[] | select(.key == "boot/regenerate") | .wanted'
}
regen_message() {
	printf '%s' "$1" | jq -r '.items[] | select(.key == "boot/regenerate") | .message'
}

# --- grubby, with parameters a shell would split or expand
R=$(boot_root fedora fed)
boot_image "$R"
write_conf "$TEST_TMP/halo.conf" <<'CONF'
version = 1;
boot = {
  iommu = "pt";
  pci_realloc = true;
  extra = [ "x=a;b&c|d", "y=*", "acpi_osi=!Windows2020", "z=$HOME`id`" ];
  remove = [ "rhgb", "splash" ];
};
CONF
WANT_ARGV='<grubby>
<--update-kernel=ALL>
<--args=iommu=pt pci=realloc x=a;b&c|d y=* acpi_osi=!Windows2020 z=$HOME`id`>
<--remove-args=rhgb splash>'

run_halo --root "$R" -c "$TEST_TMP/halo.conf" --dry-run --json
is "$rc" 10 "dry-run: 10"
cmd=$(regen_wanted "$out")
is "$(pasted "$cmd")" "$WANT_ARGV" "dry-run: the wanted grubby command, pasted, gives grubby its argv"
is "$(regen_message "$out")" "run it in the image" "dry-run: the message says to run it in the image"

run_halo --root "$R" -c "$TEST_TMP/halo.conf" --json
is "$rc" 10 "apply: 10"
is "$(pasted "$(regen_wanted "$out")")" "$WANT_ARGV" "apply: the wanted grubby command, pasted"
is "$(regen_message "$out")" "run it in the image" "apply: the message says to run it in the image"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check
line=$(grep ' boot/regenerate ' <<<"$out")
shown=${line#* boot/regenerate }
shown=${shown#"${shown%%[! ]*}"}
shown=${shown%%...*}
[ "${#line}" -le 120 ] && [ -n "$shown" ] && [[ "$cmd" == "$shown "* ]] &&
	[[ "$line" == *"; run it in the image (-v: in full)" ]]
ok $? "text report: within 120 columns, the command cut at a blank, then what to do with it" || diag "$line"
run_halo --root "$R" -c "$TEST_TMP/halo.conf" --check -v
line=$(grep ' boot/regenerate ' <<<"$out")
[[ "$line" == *" $cmd "* && "$line" == *"; run it in the image" ]]
ok $? "text report with -v: the whole quoted command, then what to do with it" || diag "$line"

# --- grub2-mkconfig (plain GRUB with /boot/grub2) and update-grub
R=$(boot_root grub g2)
mkdir -p "$R/boot/grub2"
printf 'menuentry x {\n\tlinux\t/vmlinuz root=/dev/sda2 ro quiet\n}\n' >"$R/boot/grub2/grub.cfg"
write_conf "$TEST_TMP/g.conf" <<<'version = 1; boot = { loader = "grub"; iommu = "pt"; };'
run_halo --root "$R" -c "$TEST_TMP/g.conf" --dry-run --json
is "$(pasted "$(regen_wanted "$out")")" '<grub2-mkconfig>
<-o>
</boot/grub2/grub.cfg>' "grub2-mkconfig command, pasted"

R=$(boot_root debian deb)
mkdir -p "$R/boot/grub"
printf 'menuentry x {\n\tlinux\t/vmlinuz root=/dev/sda2 ro quiet\n}\n' >"$R/boot/grub/grub.cfg"
write_conf "$TEST_TMP/d.conf" <<<'version = 1; boot = { iommu = "pt"; };'
run_halo --root "$R" -c "$TEST_TMP/d.conf" --json
is "$(pasted "$(regen_wanted "$out")")" '<update-grub>' "update-grub command, pasted"

done_testing
