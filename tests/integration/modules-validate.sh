#!/bin/bash
# Validation before anything changes: unknown modules and options, blacklist
# conflicts, a missing module index. Exit 1, one line each, nothing loaded
# or written.
source "$top_srcdir/tests/lib/tap.sh"
source "$top_srcdir/tests/integration/modules-lib.sh"

mkfx
echo "blacklist mlx5_ib" >"$FX/etc/modprobe.d/local.conf"

# refused DESCRIPTION REGEX: apply must exit 1 with REGEX on stderr and
# change nothing.
refused() {
	local before
	# The run lock (in /run, a tmpfs) is taken before validation; made
	# here so the snapshot is about the host's files.
	mkdir -p "$FX/run" && touch "$FX/run/halo-provision.lock"
	before=$(tree_snapshot "$FX")
	run_trap
	is "$rc" 1 "$1: exit 1"
	like "$err" "$2" "$1: message"
	is "$(loads)" "" "$1: nothing loaded"
	is "$(tree_snapshot "$FX")" "$before" "$1: nothing written"
}

write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "ice",
           "nosuchmod", "irdma" ];
};
CONF
refused "unknown module" "halo.conf:4: modules.load: unknown module 'nosuchmod'"
ok "$(printf '%s\n' "$err" | grep -c . | grep -qx 1; echo $?)" "unknown module: one line"

write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  load = [ "mlx5_ib" ];
  options = { mlx5_core = "roce_tos=106"; irdma = "roce_ena=1"; nosuch = "x=1"; };
};
CONF
refused "unknown option" "halo.conf:4: mlx5_core: unknown option 'roce_tos' \(the kernel would only log 'unknown parameter' and ignore it\)"
like "$err" "irdma: unknown option 'roce_ena'" "in-kernel irdma has no roce_ena: refused too"
like "$err" "modules.options: unknown module 'nosuch'" "options for an unknown module"
like "$err" "blacklisted in the root's modprobe.d" "mlx5_ib blacklisted by another drop-in: refused"
is "$(printf '%s\n' "$err" | grep -c .)" 4 "all four errors at once"

# Values the kernel's own setters refuse (the whole load would fail with
# EINVAL): checked against the modinfo type, every error at once.
write_conf "$CONF" <<'CONF'
version = 1;
modules = {
  options = { mlx5_core = "prof_sel=abc debug_mask probe_vf=1";
              ib_core = "netns_mode=maybe";
              amdgpu = "gttsize=-1 ppfeaturemask=0x1ffffffff"; };
};
CONF
refused "option type" "halo.conf:3: mlx5_core: option prof_sel: invalid value 'abc' for type uint \\(0\\.\\.4294967295\\)"
like "$err" "halo.conf:3: mlx5_core: option debug_mask: no value given; type uint needs one" "a valueless uint"
like "$err" "halo.conf:4: ib_core: option netns_mode: invalid value 'maybe' for type bool \\(y/n, Y/N, 1/0, on/off, true/false\\)" "a bool that is not one"
like "$err" "halo.conf:5: amdgpu: option ppfeaturemask: invalid value '0x1ffffffff' for type uint" "a uint out of range"
is "$(printf '%s\n' "$err" | grep -Ec 'probe_vf|gttsize')" 0 "valid values pass (probe_vf=1, gttsize=-1)"
is "$(printf '%s\n' "$err" | grep -c .)" 4 "option types: one line each"

write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "irdma" ]; blacklist = [ "ice" ]; };
CONF
refused "blacklisted dependency" "modules.load: 'irdma' needs 'ice', which modules.blacklist lists"

write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice" ]; blacklist = [ "ice" ]; };
CONF
refused "loaded and blacklisted" "['\"]ice['\"] is also in modules.(load|blacklist)"

write_conf "$CONF" <<'CONF'
version = 1;
modules = { options = { mlx5_core = "prof_sel=\"2"; }; };
CONF
refused "unbalanced quote" "mlx5_core: cannot parse"

write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice" ]; };
CONF
before=$(tree_snapshot "$FX")
run_trap --kernel-release 9.9.9-none
is "$rc" 1 "no module tree for the kernel: exit 1"
like "$err" "no module index for kernel 9.9.9-none in $FX/lib/modules/9.9.9-none" "names the missing directory"
is "$(tree_snapshot "$FX")" "$before" "no module tree: nothing written"
is "$err" "${err%uname -r*}" "--kernel-release given: no word of uname -r"
# Without --kernel-release a tree is looked up for this machine's kernel,
# rarely the tree's: the line says where the release came from.
if [ -e "$FX/lib/modules/$(uname -r)" ]; then
	ok 0 "# SKIP the fixture tree has this machine's kernel"
else
	run_halo -c "$CONF" --root "$FX"
	like "$err" "no module index for kernel $(uname -r) in .*; that is this machine's uname -r: give the tree's with --kernel-release\\)\$" \
		"the release guessed from uname under --root: the line says so"
fi

write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "connectx" ]; };
CONF
echo "alias connectx mlx5_core" >"$FX/etc/modprobe.d/alias.conf"
refused "an alias" "modules.load: 'connectx' is an alias of module 'mlx5_core'; list the module's name"
rm "$FX/etc/modprobe.d/alias.conf"

# A blacklist line from our own earlier drop-in is not the host's: apply
# rewrites that file, so loading the module is fine.
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "ice" ]; blacklist = [ "irdma" ]; };
CONF
mkdir -p "$FX/etc/modprobe.d"
printf '%s\nblacklist ice\n' "# Managed by halo-provision; local changes will be overwritten." \
	>"$FX/etc/modprobe.d/halo-provision.conf"
run_trap
is "$rc" 2 "stale own blacklist: apply goes ahead"
is "$(loads)" "ice_helper ice" "ice loaded"
is "$(grep -c '^blacklist ice$' "$FX/etc/modprobe.d/halo-provision.conf")" 0 "drop-in rewritten without it"

# --validate is the config file only; the host checks come with a run.
write_conf "$CONF" <<'CONF'
version = 1;
modules = { load = [ "nosuchmod" ]; };
CONF
run_trap --check
is "$rc" 1 "check with an unknown module: exit 1"

done_testing
