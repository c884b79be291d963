#!/bin/bash
# revert-storage: --revert of the model store removes both the mount unit
# (an owned file) and its enabling symlink in local-fs.target.wants, but
# the link only while it is exactly the one apply makes: a link pointing
# elsewhere is someone else's and is left (ok, said why); an absent link
# is already ok, as is a link under a wants "directory" that is a file; a
# symlinked wants directory is refused as for apply (exit 1, nothing
# changed). Dry-run changes nothing; a later apply
# converges again.
source "$top_srcdir/tests/integration/storage-lib.sh"

EXT=$(make_image ext4 models) || { echo "1..0 # SKIP mkfs.ext4 failed"; exit 0; }
cache_add "$EXT"
storage_conf '{ what = "LABEL=models"; where = "/models"; type = "ext4"; }'
UNIT=$ROOT/etc/systemd/system/models.mount
WANTS=$ROOT/etc/systemd/system/local-fs.target.wants
LINK=$WANTS/models.mount
KEY=storage/models.mount/enabled

halo --json
is "$rc" 2 "apply: exit 2 (changed)"
[ -n "$err" ] && diag "$err"
is "$(readlink "$LINK")" /etc/systemd/system/models.mount "apply made the link"
ok "$([ -f "$UNIT" ]; echo $?)" "... and the unit"

# --dry-run --revert: shown as drift, nothing written.
before=$(tree_snapshot "$ROOT")
halo --dry-run --revert --json
is "$rc" 2 "dry-run revert: exit 2 (drift)"
is "$(tree_snapshot "$ROOT")" "$before" "dry-run revert changes nothing"
is "$(jq -r '[.items[] | select(.outcome == "drift") | .key] | sort | join(" ")' <<<"$out")" \
	"file/etc/systemd/system/models.mount $KEY" "dry-run lists the unit and the link"
is "$(item "$KEY" .wanted)" absent "the link item wants it absent"
is "$(item "$KEY" .observed)" "-> /etc/systemd/system/models.mount" "... observed as the link"
halo --dry-run --revert
like "$out" "$KEY" "text output lists the link item"

# --revert: the unit and the link go.
halo --revert --json
is "$rc" 2 "revert: exit 2 (changed)"
[ -n "$err" ] && diag "$err"
is "$(item "$KEY" .outcome)" changed "the link item changed"
ok "$([ ! -e "$LINK" ] && [ ! -L "$LINK" ]; echo $?)" "the link is removed"
ok "$([ ! -e "$UNIT" ]; echo $?)" "the unit is removed"
is "$(systemctl --root="$ROOT" is-enabled models.mount 2>/dev/null)" "" \
	"systemctl --root knows no such unit now"
halo --revert --json
is "$rc" 0 "second revert: exit 0 (nothing left)"
is "$(item "$KEY" .outcome)" ok "an absent link is ok"

# Apply converges again.
halo --json
is "$rc" 2 "apply after revert: exit 2"
is "$(readlink "$LINK")" /etc/systemd/system/models.mount "the link is back"
after=$(tree_snapshot "$ROOT")
halo --json
is "$rc" 0 "second apply: exit 0"
is "$(jq '.stats.files_written' <<<"$out")" 0 "... writes nothing"
is "$(tree_snapshot "$ROOT")" "$after" "... tree unchanged"

# A link pointing elsewhere is not ours: left, ok, said why.
ln -sfn /etc/systemd/system/other.mount "$LINK"
halo --revert --json
is "$rc" 2 "revert with a foreign link: exit 2 (the unit removed)"
is "$(item "$KEY" .outcome)" ok "the foreign link item is ok"
like "$(item "$KEY" .message)" '^not ours \(points to /etc/systemd/system/other.mount.*\): left as is$' \
	"... not ours: left as is"
is "$(readlink "$LINK")" /etc/systemd/system/other.mount "... and the link is left"

# A relative link to the same unit is not exactly ours either.
ln -sfn ../models.mount "$LINK"
halo --revert --json
is "$(item "$KEY" .outcome)" ok "a relative link: ok"
is "$(readlink "$LINK")" ../models.mount "... left as is"

# A regular file in its place: left.
rm "$LINK"; echo x >"$LINK"
halo --revert --json
is "$rc" 0 "a file at the link's path: exit 0"
like "$(item "$KEY" .message)" '^not ours \(not a symlink\): left as is$' "... not ours"
is "$(cat "$LINK")" x "... left as is"
rm "$LINK"

# A symlinked wants directory: refused as for apply, nothing changed.
halo
is "$rc" 2 "apply again"
rm -rf "$WANTS"
mkdir -p "$TEST_TMP/elsewhere"
ln -s /etc/systemd/system/models.mount "$TEST_TMP/elsewhere/models.mount"
ln -s "$TEST_TMP/elsewhere" "$WANTS"
snap=$(tree_snapshot "$ROOT")
halo --revert
is "$rc" 1 "revert through a symlinked wants directory: exit 1"
like "$err" 'refusing to remove through a symlink' "... saying why"
is "$(tree_snapshot "$ROOT")" "$snap" "nothing changed (the unit stays too)"
ok "$([ -L "$TEST_TMP/elsewhere/models.mount" ]; echo $?)" "nothing removed through it"
rm "$WANTS"
# A wants "directory" that is a file: no link can be there, so the link
# is already gone (ok, said why); the unit is removed, the file is not
# ours and stays.
echo x >"$WANTS"
halo --revert --json
is "$rc" 2 "a wants path that is a file: exit 2 (the unit removed)"
is "$(item "$KEY" .outcome)" ok "... the link item is ok"
like "$(item "$KEY" .message)" 'local-fs\.target\.wants is not a directory: no link to remove$' "... saying why"
ok "$([ ! -e "$UNIT" ]; echo $?)" "... the unit is gone"
is "$(cat "$WANTS")" x "... the file is left as is"
rm "$WANTS"

# An entry the config no longer has: the last state file records its unit
# and link, and --revert removes both by the same rules.
storage_conf '{ what = "LABEL=models"; where = "/models"; type = "ext4"; }'
halo
is "$rc" 2 "apply of the entry again"
printf 'version = 1;\n' | write_conf "$CONF"
halo --revert --json
is "$rc" 2 "revert after the entry left the config: exit 2"
is "$(item "$KEY" .outcome)/$(item file/etc/systemd/system/models.mount .outcome)" \
	changed/changed "the recorded link and unit are reverted"
ok "$([ ! -e "$LINK" ] && [ ! -L "$LINK" ] && [ ! -e "$UNIT" ]; echo $?)" "... and gone"

# An apply after the entry left the config: the unit and its link stay
# together; a revert never removes the unit alone (a dangling link).
storage_conf '{ what = "LABEL=models"; where = "/models"; type = "ext4"; }'
halo
printf 'version = 1;\n' | write_conf "$CONF"
halo
halo --revert
ok "$( { [ -e "$UNIT" ] && [ -L "$LINK" ]; } || { [ ! -e "$UNIT" ] && [ ! -L "$LINK" ]; }; echo $?)" \
	"entry left, applied, reverted: unit and link stay or go together"

done_testing
