# tests/lib/debian-root.sh: a cached Debian 12 root that boots under
# systemd-nspawn (sourced by tests/integration/units-boot.sh).
#
# debian_root PACKAGE...: echoes the path of a minbase Debian 12 root with
# systemd as init and PACKAGE... installed, made once by debootstrap from
# Debian's archive and kept in the cache directory, one root per package
# list (the list's hash names it). The root is shaped like an image made
# for a first boot: /etc/machine-id says "uninitialized" (systemd's
# ConditionFirstBoot=), and apt's lists and caches, the documentation and
# the locales are left out (nothing in it installs from the archive).
# Callers copy it before they boot it: it is never changed once made.
#
# HALO_ROOT_CACHE: the cache directory (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/halo-provision/roots).
# HALO_DEBIAN_MIRROR: the archive (default http://deb.debian.org/debian).
#
# The test suite runs each test in an empty network namespace (unshare
# --net): debootstrap runs in the network namespace the suite was started
# in, where the archive is reached. It only downloads there; it sets no
# link, address or route.

# The network namespace of the nearest ancestor process that is not in
# ours (the suite's, before unshare --net); ours when there is none (a
# test run by hand). PID 1's may not be readable: its capabilities can
# exceed ours.
debian_root_netns() {
	local pid=$$ self
	self=$(readlink /proc/self/ns/net)
	while pid=$(ps -o ppid= -p "$pid" 2>/dev/null) && pid=${pid// /} && [ "${pid:-0}" -gt 1 ]; do
		if [ "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" != "$self" ]; then
			echo "/proc/$pid/ns/net"
			return
		fi
	done
	echo /proc/self/ns/net
}

debian_root_cache() {
	echo "${HALO_ROOT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/halo-provision/roots}"
}

debian_root() {
	local cache key dir tmp log rc
	cache=$(debian_root_cache)
	# The base packages (systemd as init; iproute2 for reading links from
	# inside) and the caller's, sorted: the cache key.
	key=$(printf '%s\n' systemd systemd-sysv iproute2 "$@" | sort -u | tr '\n' ' ')
	dir=$cache/debian12-$(printf 'bookworm minbase %s' "$key" | sha256sum | cut -c1-16)
	mkdir -p "$cache" || return 1
	# One builder at a time: other suites on this machine share the cache.
	exec {lockfd}>"$cache/.lock" || return 1
	flock "$lockfd" || return 1
	if [ -f "$dir/.complete" ]; then
		exec {lockfd}>&-
		echo "$dir"
		return 0
	fi
	rm -rf "$dir" "$dir.tmp"
	tmp=$dir.tmp
	log=$cache/debootstrap.log
	# DPKG_FORCE=unsafe-io: dpkg in the new root skips its fsync calls
	# (a root cut short has no .complete and is made again); about 40%
	# of the time. --cache-dir keeps the downloaded packages for the
	# next package list.
	mkdir -p "$cache/debs" || return 1
	DPKG_FORCE=unsafe-io nsenter --net="$(debian_root_netns)" -- \
		debootstrap --variant=minbase --cache-dir="$cache/debs" \
		--include="$(tr ' ' ',' <<<"${key% }")" bookworm "$tmp" \
		"${HALO_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "debian_root: debootstrap exited $rc; the end of $log:" >&2
		tail -5 "$log" >&2
		rm -rf "$tmp"
		exec {lockfd}>&-
		return 1
	fi
	rm -rf "$tmp"/var/cache/apt/*.bin "$tmp"/var/lib/apt/lists/* \
		"$tmp"/var/cache/apt/archives/*.deb \
		"$tmp"/usr/share/doc/* "$tmp"/usr/share/man/* "$tmp"/usr/share/locale/* \
		"$tmp"/usr/share/info/*
	# A first boot: the machine ID is made at boot and committed once
	# first-boot-complete.target is reached (machine-id(5)).
	echo uninitialized >"$tmp/etc/machine-id"
	rm -f "$tmp/var/lib/dbus/machine-id"
	echo "$key" >"$tmp/.packages"
	touch "$tmp/.complete"
	mv "$tmp" "$dir"
	exec {lockfd}>&-
	echo "$dir"
}
