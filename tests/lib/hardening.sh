# tests/lib/hardening.sh: the hardening harness's shared parts (sourced by
# tests/integration/concurrency.sh, crash-consistency.sh and bench/crash.sh;
# needs write_conf from tests/lib/tap.sh or an equivalent, and $HALO).

HARDEN_KR=(--kernel-release 6.1.0-test)

# harden_strace ARGS...: strace, for a sanitizer build too. LeakSanitizer
# checks at exit by stopping the process with ptrace, which fails (and
# aborts the run) under strace; leaks are still checked on every untraced
# run of the suite.
harden_strace() {
	ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" strace "$@"
}

# harden_make_root DIR: a Debian-like root with a grub file, a sysctl and
# a config whose apply writes several files in several new directories
# (boot and its record, memlock drop-ins, the sysctl drop-in, the state).
harden_make_root() {
	mkdir -p "$1/etc/halo-provision" "$1/etc/default" "$1/proc/sys/vm" "$1/run"
	printf 'GRUB_CMDLINE_LINUX_DEFAULT="quiet"\n' >"$1/etc/default/grub"
	echo 60 >"$1/proc/sys/vm/swappiness"
	write_conf "$1/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
boot = { loader = "grub"; iommu = "pt"; regenerate = false; };
access = { memlock = "unlimited"; };
sysctl = { settings = [ "vm.swappiness = 10" ]; };
CONF
}

# harden_managed DIR: "SHA256  PATH" of every file apply manages (the
# state file records times, so it is left out; the lock is not content;
# temp files are counted by harden_temps).
harden_managed() {
	mkdir -p "$1/var"
	(cd "$1" && find etc var proc/sys -type f ! -name state.json ! -name '.#*' -print0 |
		sort -z | xargs -0 sha256sum)
}

# harden_temps DIR: the temp files ('.#NAME.XXXXXX') under DIR.
harden_temps() { find "$1" -name '.#*' | sort; }

# harden_old_or_new RUN OLD NEW: every managed file of root RUN is byte for
# byte its version in root OLD (or absent there and here) or in root NEW.
# Prints the first file that is neither; returns 1 then.
harden_old_or_new() {
	local run=$1 old=$2 new=$3 path
	local -A in_old=() in_new=() in_run=()
	local sum p
	while read -r sum p; do in_old[$p]=$sum; done < <(harden_managed "$old")
	while read -r sum p; do in_new[$p]=$sum; done < <(harden_managed "$new")
	while read -r sum p; do in_run[$p]=$sum; done < <(harden_managed "$run")
	for path in "${!in_old[@]}" "${!in_new[@]}" "${!in_run[@]}"; do
		# proc/sys stands in for kernel knobs, which a write sets whole
		# or not at all; as a regular file a failed write truncates it.
		[[ "$path" == proc/* ]] && continue
		sum=${in_run[$path]:-absent}
		[ "$sum" = "${in_old[$path]:-absent}" ] || [ "$sum" = "${in_new[$path]:-absent}" ] ||
			{ echo "$path is neither old nor new"; return 1; }
	done
	# The state file, where there is one, is a whole JSON document.
	if [ -e "$run/var/lib/halo-provision/state.json" ] &&
		! jq -e . "$run/var/lib/halo-provision/state.json" >/dev/null 2>&1; then
		echo "state.json is not a whole JSON document"
		return 1
	fi
}

# harden_syscall_count ROOT0 SYSCALL: how many times an apply on a copy of
# ROOT0 makes SYSCALL (counted by strace).
harden_syscall_count() {
	local work
	work=$(mktemp -d "${TMPDIR:-/tmp}/halo-harden.XXXXXX")
	cp -a "$1" "$work/root"
	harden_strace -f -qq -o "$work/trace" -e trace="$2" "$HALO" --root "$work/root" \
		"${HARDEN_KR[@]}" -q >/dev/null 2>&1
	grep -c "^[0-9]* *$2(" "$work/trace"
	rm -rf "$work"
}

# harden_errno_text NAME: what strerror says for the errno NAME that a
# trial injects (the output must name it).
harden_errno_text() {
	case $1 in
	EIO) echo 'Input/output error' ;;
	ENOSPC) echo 'No space left on device' ;;
	EDQUOT) echo 'Disk quota exceeded' ;;
	*) echo "$1" ;;
	esac
}

# harden_check_after WORK ROOT0 WANT HOW: the invariants after a run on
# WORK/root that was failed or killed as HOW says: every managed file old
# or new, and a rerun without faults takes the lock, leaves no temp file
# and ends with every file as in root WANT. Prints why on failure.
harden_check_after() {
	local work=$1 root0=$2 want=$3 why rc
	why=$(harden_old_or_new "$work/root" "$root0" "$want")
	if [ -z "$why" ]; then
		"$HALO" --root "$work/root" "${HARDEN_KR[@]}" --wait 0 -q >/dev/null 2>"$work/err2"
		rc=$?
		if [ "$rc" != 10 ] && [ "$rc" != 8 ] && [ "$rc" != 2 ] && [ "$rc" != 0 ]; then
			why="the rerun exited $rc: $(head -1 "$work/err2")"
		elif [ -n "$(harden_temps "$work/root")" ]; then
			why="the rerun left $(harden_temps "$work/root" | head -1)"
		elif [ "$(harden_managed "$work/root")" != "$(harden_managed "$want")" ]; then
			why="the rerun did not converge"
		fi
	fi
	printf '%s' "$why"
}

# harden_trial ROOT0 WANT INJECT: one crash trial on a fresh copy of root
# ROOT0. INJECT is strace's injection ("fsync:error=EIO:when=3", or
# "write:signal=KILL:when=7"). Then harden_check_after. Prints why on
# failure; returns 1.
harden_trial() {
	local root0=$1 want=$2 inject=$3 work rc why="" errno text
	work=$(mktemp -d "${TMPDIR:-/tmp}/halo-harden.XXXXXX")
	cp -a "$root0" "$work/root"
	harden_strace -f -qq -o /dev/null -e trace="${inject%%:*}" -e inject="$inject" \
		"$HALO" --root "$work/root" "${HARDEN_KR[@]}" -q >"$work/err" 2>&1
	rc=$?
	errno=$(sed -n 's/.*:error=\([A-Z0-9]*\).*/\1/p' <<<"$inject")
	text=$(harden_errno_text "$errno")
	# A crash of our own (not the injected SIGKILL) is a finding; so is
	# a failed file operation that the exit status does not show (bit 4,
	# or 1 when it was the lock) or that the output does not name.
	if [ "$rc" -ge 128 ] && [[ "$inject" != *signal=KILL* ]]; then
		why="exit $rc (a signal)"
	elif [ -n "$errno" ] && [[ "$inject" != write:* ]] &&
		{ ! { [ $((rc & 4)) = 4 ] || [ "$rc" = 1 ]; } ||
		  ! grep -qF "$text" "$work/err"; }; then
		why="exit $rc after a failed ${inject%%:*}, saying '$(grep -v '^ *ok' "$work/err" | head -1)'"
	fi
	[ -z "$why" ] && why=$(harden_check_after "$work" "$root0" "$want")
	rm -rf "$work"
	[ -z "$why" ] && return 0
	echo "$inject: $why"
	return 1
}

# harden_kill_trial ROOT0 WANT DELAY_US: an apply on a fresh copy of ROOT0,
# untraced, SIGKILLed DELAY_US microseconds after it started (anywhere,
# inside a system call too, where strace's injection cannot reach), then
# harden_check_after. Prints why on failure; returns 1.
harden_kill_trial() {
	local root0=$1 want=$2 delay=$3 work pid why
	work=$(mktemp -d "${TMPDIR:-/tmp}/halo-harden.XXXXXX")
	cp -a "$root0" "$work/root"
	"$HALO" --root "$work/root" "${HARDEN_KR[@]}" -q >"$work/err" 2>&1 &
	pid=$!
	sleep "$(printf '0.%06d' "$delay")"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	why=$(harden_check_after "$work" "$root0" "$want")
	rm -rf "$work"
	[ -z "$why" ] && return 0
	echo "SIGKILL after ${delay} us: $why"
	return 1
}
