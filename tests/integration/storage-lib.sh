# tests/integration/storage-lib.sh: --root sandboxes for the model store
# tests (sourced). Real file system images on plain files (no loop
# devices), found by libblkid through the root's cache
# (ROOT/run/blkid/blkid.tab) or as a /dev path inside the root.
source "$top_srcdir/tests/lib/tap.sh"

ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/run/blkid" "$ROOT/proc/self" "$ROOT/etc/halo-provision"
# Only the root file system is mounted at first.
echo '22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw' >"$ROOT/proc/self/mountinfo"
: >"$ROOT/run/blkid/blkid.tab"
# The run lock may be made by any run, even one refused (DESIGN.md).
: >"$ROOT/run/halo-provision.lock"

# make_image TYPE LABEL [FILE]: mkfs on a sparse file, echoes its path
# (xfs wants 300 MiB; sparse, it takes a few MiB of disk).
make_image() {
	local img=${3:-$TEST_TMP/$2-$RANDOM.img}
	case $1 in
	xfs) truncate -s 320M "$img" && mkfs.xfs -q -f -K -L "$2" "$img" ;;
	ext4) truncate -s 8M "$img" && mkfs.ext4 -q -F -L "$2" "$img" ;;
	esac >/dev/null || return 1
	echo "$img"
}

# cache_add IMG: the root's libblkid cache knows IMG (as blkid would
# record it: label, UUID, type).
cache_add() {
	local uuid label type
	uuid=$(blkid -p -s UUID -o value "$1")
	label=$(blkid -p -s LABEL -o value "$1")
	type=$(blkid -p -s TYPE -o value "$1")
	printf '<device DEVNO="0x0000" TIME="1700000000.1" LABEL="%s" UUID="%s" TYPE="%s">%s</device>\n' \
		"$label" "$uuid" "$type" "$1" >>"$ROOT/run/blkid/blkid.tab"
}

# storage_conf ENTRIES: the config with these storage entries.
storage_conf() {
	printf 'version = 1;\nstorage = (\n%s\n);\n' "$1" | write_conf "$CONF"
}

halo() { run_halo -c "$CONF" --root "$ROOT" --only storage "$@"; }
item() { jq -r --arg k "$1" '.items[] | select(.key==$k) | '"$2" <<<"$out"; }

# verify_unit FILE: systemd-analyze verify on a copy under the same name
# in a scratch unit directory; echoes what it says (nothing when valid).
verify_unit() {
	local d=$TEST_TMP/verify-$RANDOM
	mkdir -p "$d"
	cp "$1" "$d/"
	(cd "$d" && SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no \
		"$d/$(basename "$1")" 2>&1)
}
