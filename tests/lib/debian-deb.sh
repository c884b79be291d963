# tests/lib/debian-deb.sh: the project's Debian package, built from the
# release tree (sourced by tests/integration/debian-package.sh and
# units-boot.sh and ansible-install.sh; needs top_builddir and HALO).
#
# A build takes a minute or more: debian-package.sh builds it and leaves
# a copy in $top_builddir/tests/deb/ (removed by make clean), which
# units-boot.sh, ordered after it by the suite, installs when it is newer
# than the binary and the units.

deb_dir() { echo "$top_builddir/tests/deb"; }

# make in the build directory, on its own: not the flags (-j, jobserver)
# of the make check that runs the test.
deb_clean_env=(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u top_srcdir -u top_builddir -u HALO)

# Why the package is not built in this suite, or nothing (status 1): it
# is built once, by the plain build's suite.
deb_skip_reason() {
	if [ -n "${HALO_SANITIZER_CFLAGS:-}" ] ||
		ldd "$HALO" 2>/dev/null | grep -Eq 'lib(a|ub)san'; then
		echo "sanitizer build: the package is built once, by the plain build's suite"
		return 0
	fi
	case ${HALO_LOG_COMPILER:-} in
	*valgrind*)
		echo "under valgrind: the package is built once, by the plain build's suite"
		return 0 ;;
	esac
	local tool
	for tool in dpkg-buildpackage dh; do
		if ! command -v "$tool" >/dev/null; then
			echo "$tool not installed (Debian packages dpkg-dev, debhelper)"
			return 0
		fi
	done
	return 1
}

deb_version() {
	"$HALO" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1
}

# deb_distdir DIR: the release tree (what the tarball carries) in DIR.
deb_distdir() {
	"${deb_clean_env[@]}" make -s --no-print-directory -C "$top_builddir" distdir \
		distdir="$1"
}

# deb_buildpackage DIR: dpkg-buildpackage -b in the release tree DIR; the
# .deb lands beside DIR.
deb_buildpackage() {
	(cd "$1" && DEB_BUILD_OPTIONS='nocheck parallel=2 noautodbgsym' \
		"${deb_clean_env[@]}" dpkg-buildpackage -us -uc -b)
}

# deb_publish DEB: the copy units-boot.sh finds.
deb_publish() {
	mkdir -p "$(deb_dir)" && cp "$1" "$(deb_dir)/"
}

# The published .deb of this version when it is newer than the binary and
# every built unit; nothing otherwise.
deb_published() {
	local deb f
	deb=$(deb_dir)/halo-provision_$(deb_version)-1_$(dpkg --print-architecture).deb
	[ -f "$deb" ] && [ "$deb" -nt "$HALO" ] || return 0
	for f in "$top_builddir"/systemd/*.service; do
		[ "$deb" -nt "$f" ] || return 0
	done
	echo "$deb"
}

# deb_build_into DIR: builds the .deb under DIR (logs there too); echoes
# its path.
deb_build_into() {
	local dir=$1 version
	version=$(deb_version)
	mkdir -p "$dir" || return 1
	deb_distdir "$dir/halo-provision-$version" >"$dir/distdir.log" 2>&1 || return 1
	deb_buildpackage "$dir/halo-provision-$version" >"$dir/build.log" 2>&1 || {
		tail -20 "$dir/build.log" >&2
		return 1
	}
	echo "$dir/halo-provision_$version-1_$(dpkg --print-architecture).deb"
}

# deb_for_test: sets $deb to the published .deb, or to one built under
# $TEST_TMP/deb when there is none (a TAP bail-out if that fails).
deb_for_test() {
	local t=$SECONDS
	deb=$(deb_published)
	[ -n "$deb" ] && return 0
	deb=$(deb_build_into "$TEST_TMP/deb") || {
		echo "Bail out! building the .deb failed"
		exit 1
	}
	echo "# .deb built here in $((SECONDS - t)) s"
}

# deb_depends DEB: the package names DEB's Depends lists, one a line
# (versions and alternatives left out).
deb_depends() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed -e 's/[(|].*//' -e 's/[[:space:]]//g' | grep .
}
