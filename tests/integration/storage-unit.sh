#!/bin/bash
# The model store: a real xfs image found by LABEL= through the root's
# libblkid cache becomes an enabled .mount unit that systemd itself
# accepts (systemd-analyze verify, systemctl --root is-enabled); a second
# apply writes nothing; the mount is observed from the root's mountinfo
# and never made. Also: UUID= and a /dev path to ext4 images, mount
# points that need escaping (checked against the real systemd-escape),
# a device that is not there yet.
source "$top_srcdir/tests/integration/storage-lib.sh"

XFS=$(make_image xfs models) || { echo "1..0 # SKIP mkfs.xfs failed"; exit 0; }
cache_add "$XFS"
storage_conf '{ what = "LABEL=models"; where = "/models"; type = "xfs"; options = "noatime"; }'
UNIT=$ROOT/etc/systemd/system/models.mount
LINK=$ROOT/etc/systemd/system/local-fs.target.wants/models.mount

# libblkid is opened when a device is probed, never at start-up.
libs=$(libs_opened "$HALO" --version)
like "$libs" 'libc\.so\.6' "LD_DEBUG=files shows the libraries of --version"
ok "$([[ $libs =~ libblkid ]] && echo 1 || echo 0)" "--version does not map libblkid"
like "$(libs_opened "$HALO" -c "$CONF" --root "$ROOT" --only storage --check)" 'libblkid\.so\.1' \
	"a storage check opens libblkid to probe the device"
# A libblkid that is no library: one line naming it, nothing planned.
mkdir -p "$TEST_TMP/lib"
echo "not a shared object" >"$TEST_TMP/lib/libblkid.so.1"
before=$(tree_snapshot "$ROOT")
for mode in --check ""; do
	LD_LIBRARY_PATH=$TEST_TMP/lib halo $mode
	is "$rc" 1 "a broken libblkid (${mode:-apply}): exit 1"
	like "$err" '^halo-provision: .*storage\[0\]: probing LABEL=models: [^ ]*/libblkid\.so\.1: (file too short|invalid ELF header)$' \
		"... one line naming the library"
done
is "$(tree_snapshot "$ROOT")" "$before" "... and nothing changed"

before=$(tree_snapshot "$ROOT")
halo --check --json
is "$rc" 2 "check before apply: exit 2 (drift)"
is "$(item storage/models.mount/device .outcome)" ok "the device is found (libblkid, root's cache)"
like "$(item storage/models.mount/device .observed)" "^$XFS \(xfs\)$" "... and probed as xfs"
halo --dry-run --diff
is "$rc" 2 "dry-run: exit 2"
like "$out" '\+What=/dev/disk/by-label/models' "dry-run --diff shows the unit"
is "$(tree_snapshot "$ROOT")" "$before" "check and dry-run wrote nothing"

halo --json
is "$rc" 2 "apply: exit 2 (changed)"
[ -n "$err" ] && diag "$err"
is "$(item file/etc/systemd/system/models.mount .outcome)" changed "the unit was written"
is "$(grep -v '^#' "$UNIT" | grep -E '^(What|Where|Type|Options)=')" \
"What=/dev/disk/by-label/models
Where=/models
Type=xfs
Options=noatime" "the unit's What=, Where=, Type=, Options="
head -1 "$UNIT" | grep -q 'Managed by halo-provision'
ok $? "the unit carries the managed header"
is "$(stat -c %a "$UNIT")" 644 "mode 0644"
is "$(readlink "$LINK")" /etc/systemd/system/models.mount "enabled: local-fs.target.wants link"
is "$(item storage/models.mount/enabled .outcome)" changed "the enabled item changed"
like "$(item storage/models.mount/enabled .message)" "never mounts" "its message says mounting is the unit's job"
is "$(item storage/models.mount/mounted .outcome)" drift "not mounted: drift"
like "$(item storage/models.mount/mounted .message)" \
	'mounted at next boot or `systemctl start models.mount`' "... with the way to mount it"
is "$(verify_unit "$UNIT")" "" "systemd-analyze verify accepts the unit"
is "$(systemctl --root="$ROOT" is-enabled models.mount 2>&1)" enabled \
	"systemctl --root sees it enabled"
is "$(grep -c 'models' "$ROOT/proc/self/mountinfo")" 0 "nothing was mounted"

after=$(tree_snapshot "$ROOT")
halo --json
is "$rc" 0 "second apply: exit 0"
is "$(jq '.stats.files_written' <<<"$out")" 0 "second apply writes nothing"
is "$(tree_snapshot "$ROOT")" "$after" "the tree is unchanged"

halo --check
is "$rc" 2 "check while not mounted: exit 2 (drift)"

# Mounted by systemd, as mountinfo shows it.
echo "40 22 8:17 / /models rw,noatime shared:20 - xfs $XFS rw,attr2" >>"$ROOT/proc/self/mountinfo"
halo --check --json
is "$rc" 0 "check when mounted: exit 0"
is "$(item storage/models.mount/mounted .outcome)" ok "mounted item ok"

# Something else mounted there.
echo "41 40 0:45 / /models rw - tmpfs tmpfs rw" >>"$ROOT/proc/self/mountinfo"
halo --check --json
is "$rc" 4 "check with another file system on top: exit 4 (failed)"
like "$(item storage/models.mount/mounted .message)" \
	'tmpfs \(tmpfs\) is mounted at /models, not LABEL=models: `umount /models`, then `systemctl start models.mount`' \
	"... with the fix"

# A wrong link is replaced (atomically), never followed.
ln -sfn /etc/systemd/system/other.mount "$LINK"
halo --json
is "$(readlink "$LINK")" /etc/systemd/system/models.mount "a wrong link is replaced"
# A symlinked wants directory: refused before anything is written.
rm -rf "$ROOT/etc/systemd/system/local-fs.target.wants"
mkdir -p "$TEST_TMP/elsewhere"
ln -s "$TEST_TMP/elsewhere" "$ROOT/etc/systemd/system/local-fs.target.wants"
snap=$(tree_snapshot "$ROOT")
halo
is "$rc" 1 "a symlinked wants directory: exit 1"
like "$err" 'refusing to link through a symlink' "... saying why"
is "$(ls -A "$TEST_TMP/elsewhere")" "" "nothing written through it"
is "$(tree_snapshot "$ROOT")" "$snap" "nothing changed"
rm "$ROOT/etc/systemd/system/local-fs.target.wants"
# A file where the wants directory should be: the link cannot be made,
# found before the first change like any unwritable directory (exit 4).
echo "not a directory" >"$ROOT/etc/systemd/system/local-fs.target.wants"
snap=$(tree_snapshot "$ROOT")
halo
is "$rc" 4 "a file in place of the wants directory: exit 4"
like "$err" "local-fs\\.target\\.wants/models\\.mount cannot be written: .*/etc/systemd/system/local-fs\\.target\\.wants is not a directory; nothing was changed$" \
	"... one line naming it"
is "$(tree_snapshot "$ROOT")" "$snap" "nothing changed"
rm "$ROOT/etc/systemd/system/local-fs.target.wants"

# UUID= of an ext4 image, and a /dev path inside the root; mount points
# that systemd must escape: names as the real systemd-escape gives them.
EXT=$(make_image ext4 data)
cache_add "$EXT"
EXT_UUID=$(blkid -p -s UUID -o value "$ROOT$EXT")
mkdir -p "$ROOT/dev"
make_image ext4 scratch /dev/models0 >/dev/null
MOD=/mnt/$(printf 'mod\303\250les')
storage_conf "{ what = \"UUID=$EXT_UUID\"; where = \"/mnt/my models\"; type = \"ext4\"; },
  { what = \"/dev/models0\"; where = \"/srv/a-b/c\"; type = \"ext4\"; options = \"ro,nofail\"; },
  { what = \"LABEL=models\"; where = \"/models/v2.1\"; },
  { what = \"LABEL=models\"; where = \"$MOD\"; type = \"xfs\"; }"
halo --json
is "$rc" 2 "apply with four stores: exit 2"
[ -n "$err" ] && diag "$err"
for where in "/mnt/my models" /srv/a-b/c /models/v2.1 "$MOD"; do
	name=$(systemd-escape --path --suffix=mount "$where")
	f=$ROOT/etc/systemd/system/$name
	ok "$([ -f "$f" ]; echo $?)" "unit for '$where' is named $name (systemd-escape)"
	is "$(sed -n 's/^Where=//p' "$f")" "$where" "... Where=$where"
	is "$(verify_unit "$f")" "" "... systemd-analyze verify accepts it"
	is "$(readlink "$ROOT/etc/systemd/system/local-fs.target.wants/$name")" \
		"/etc/systemd/system/$name" "... enabled"
done
is "$(sed -n 's/^What=//p' "$ROOT/etc/systemd/system/mnt-my\\x20models.mount")" \
	"/dev/disk/by-uuid/$EXT_UUID" "UUID= becomes What=/dev/disk/by-uuid/..."
is "$(item 'storage/srv-a\x2db-c.mount/device' .observed)" "/dev/models0 (ext4)" \
	"a /dev path is probed inside the root"
! grep -q '^Type=' "$ROOT/etc/systemd/system/models-v2.1.mount"
ok $? "no type configured: no Type= (mount detects it)"

# A device that is not there (yet): its item fails, the unit is written
# and mounts it when it appears.
storage_conf '{ what = "LABEL=later"; where = "/later"; type = "xfs"; }'
halo --json
is "$rc" 6 "absent device: exit 6 (changed, failed)"
like "$(item storage/later.mount/device .message)" \
	'LABEL=later names no device now \(libblkid cache /run/blkid/blkid.tab in the root\); the unit mounts it when it appears' \
	"... the device item says so"
ok "$([ -f "$ROOT/etc/systemd/system/later.mount" ]; echo $?)" "... and the unit is written"

done_testing
