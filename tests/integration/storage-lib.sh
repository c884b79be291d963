# tests/integration/storage-lib.sh: --root sandboxes for the model store
# tests (sourced). Real file system images on plain files inside the
# root (no loop devices), found by libblkid through the root's cache
# (ROOT/run/blkid/blkid.tab) or as a /dev path inside the root.
source "$top_srcdir/tests/lib/tap.sh"

ROOT=$TEST_TMP/root
CONF=$ROOT/etc/halo-provision/halo.conf
mkdir -p "$ROOT/run/blkid" "$ROOT/proc/self" "$ROOT/etc/halo-provision"
# Only the root file system is mounted at first.
echo '22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw' >"$ROOT/proc/self/mountinfo"
: >"$ROOT/run/blkid/blkid.tab"
# The run lock may be made by any run, even one refused (the man page's EXIT STATUS).
: >"$ROOT/run/halo-provision.lock"

# make_image TYPE LABEL [DEV]: mkfs on a sparse file inside the root
# (DEV, default /dev/halo-LABEL.img), echoes its in-root path: under
# --root nothing outside the root is ever read, so images live in it
# (xfs wants 300 MiB; sparse, it takes a few MiB of disk; tree_snapshot
# skips dev/).
make_image() {
	local dev=${3:-/dev/halo-$2.img}
	mkdir -p "$ROOT/${dev%/*}"
	case $1 in
	xfs) truncate -s 320M "$ROOT$dev" && mkfs.xfs -q -f -K -L "$2" "$ROOT$dev" ;;
	ext4) truncate -s 8M "$ROOT$dev" && mkfs.ext4 -q -F -L "$2" "$ROOT$dev" ;;
	esac >/dev/null || return 1
	echo "$dev"
}

# cache_add DEV: the root's libblkid cache knows the image at the in-root
# path DEV (as blkid would record it: label, UUID, type).
cache_add() {
	local uuid label type
	uuid=$(blkid -p -s UUID -o value "$ROOT$1")
	label=$(blkid -p -s LABEL -o value "$ROOT$1")
	type=$(blkid -p -s TYPE -o value "$ROOT$1")
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
