#!/bin/bash
# Bash completion (completion/halo-provision.bash): options, the --only comma
# list, files, directories, namespaces and interfaces; every option --help
# prints is offered, and only those. Runs without the bash-completion package
# and, when it is installed, again with its _init_completion.
. "$top_srcdir/tests/lib/tap.sh"

COMPLETION=$top_srcdir/completion/halo-provision.bash

# complete WORD...: the completion for the command line WORD... (the last
# word is the one being completed); $got = the sorted candidates, one line
# each joined by spaces.
complete_words() {
	COMP_WORDS=(halo-provision "$@")
	COMP_CWORD=$#
	# The line as typed: "--only = ro" was "--only=ro" (= breaks words).
	local w prev=
	COMP_LINE=
	for w in "${COMP_WORDS[@]}"; do
		if [ -z "$COMP_LINE" ] || [ "$w" = = ] || [ "$prev" = = ]; then
			COMP_LINE+=$w
		else
			COMP_LINE+=" $w"
		fi
		prev=$w
	done
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_halo_provision halo-provision "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort | tr '\n' ' ')
	got=${got% }
}

# Options as --help lists them: "-c, --config FILE", "--root DIR", ...
help_options=$("$HALO" --help | grep -oE '(^|[ ,\[])--?[a-z][a-z-]*' |
	sed 's/^[ ,[]//' | sort -u)
[ -n "$help_options" ] || { echo "Bail out! --help listed no option"; exit 1; }

# An interface and a namespace named like a command substitution: the
# completion must offer the name and never run it.
injected() { touch "$TEST_TMP/injected"; }
# "h" first: with bash-completion a word starting with "$" completes
# variables before any command's function runs.
inj_if='h$(injected)'
NS=$(new_netns compl)
have_inj_if=false
# In the namespace: /sys/class/net is the host's (unshare --net does not
# remount /sys), so --netns NS --interface lists it with ip -n. A veth
# pair: the dummy module may not be loadable here.
ip -n "$NS" link add name "$inj_if" type veth peer name peer0 2>/dev/null &&
	have_inj_if=true
inj_ns="halo-\$(injected)-$$"
have_inj_ns=false
if ip netns add "$inj_ns" 2>/dev/null; then
	echo "$inj_ns" >>"$TEST_NETNS_LIST"
	have_inj_ns=true
fi

mkdir -p "$TEST_TMP/rootdir" "$TEST_TMP/rootdir2"
touch "$TEST_TMP/rootfile" "$TEST_TMP/halo.conf"

run_cases() {	# run_cases MODE
	local m=$1 o missing extra offered

	complete_words --on
	is "$got" "--only" "$m: --on completes to --only"
	complete_words --only ro
	is "$got" "roce" "$m: --only ro completes to roce"
	complete_words --only boot,mo
	is "$got" "boot,modules" "$m: --only boot,mo completes after the comma"
	complete_words --only boot,modules,r
	is "$got" "boot,modules,rdma boot,modules,ready boot,modules,roce" \
		"$m: --only a,b,r offers every r subsystem"
	complete_words --only boot,
	is "$got" "boot,files boot,links boot,modules boot,rdma boot,ready boot,roce boot,storage" \
		"$m: --only boot, offers the others, not boot again"
	complete_words --only = ro
	is "$got" "roce" "$m: --only=ro (split at =) completes to roce"

	complete_words --root /tm
	like "$got" '(^| )/tmp( |$)' "$m: --root /tm offers /tmp"
	complete_words --root "$TEST_TMP/root"
	is "$got" "$TEST_TMP/rootdir $TEST_TMP/rootdir2" "$m: --root offers directories only"
	complete_words -c "$TEST_TMP/halo"
	is "$got" "$TEST_TMP/halo.conf" "$m: -c completes files"
	complete_words --config "$TEST_TMP/rootf"
	is "$got" "$TEST_TMP/rootfile" "$m: --config completes files"
	complete_words --cluster "$TEST_TMP/halo.conf" "$TEST_TMP/rootf"
	is "$got" "$TEST_TMP/rootfile" "$m: --cluster completes every file after it"
	complete_words --cluster "$TEST_TMP/halo.conf" --do
	is "$got" "--dot" "$m: --cluster ... --do completes to --dot"

	complete_words --netns "${NS%-*}"
	is "$got" "$NS" "$m: --netns offers the namespace ip netns list shows"
	complete_words --interface l
	like "$got" '(^| )lo( |$)' "$m: --interface offers lo from /sys/class/net"

	rm -f "$TEST_TMP/injected"
	if $have_inj_if; then
		complete_words --netns "$NS" --interface h
		is "$got" "$inj_if" "$m: an interface named h\$(cmd) in --netns is offered as is"
		complete_words --netns = "$NS" --interface p
		is "$got" "peer0" "$m: --netns=NS --interface lists that namespace"
	else
		ok 0 "# SKIP $m: cannot add a veth here"
		ok 0 "# SKIP $m: cannot add a veth here"
	fi
	if $have_inj_ns; then
		complete_words --netns 'halo-$'
		is "$got" "$inj_ns" "$m: a namespace named \$(cmd) is offered as is"
	else
		ok 0 "# SKIP $m: cannot add a namespace here"
	fi
	[ ! -e "$TEST_TMP/injected" ]
	ok $? "$m: no name was run as a command"

	# Every option --help prints is offered after "-", and nothing else.
	complete_words -
	offered=$(printf '%s\n' $got | sort -u)
	missing=$(comm -23 <(echo "$help_options") <(echo "$offered") | tr '\n' ' ')
	extra=$(comm -13 <(echo "$help_options") <(echo "$offered") | tr '\n' ' ')
	is "$missing" "" "$m: every option of --help is completed"
	is "$extra" "" "$m: every completed option is in --help"

	complete_words --help --r
	is "$got" "--revert --root" "$m: a second option completes too"
	complete_words --wait ''
	is "$got" "" "$m: --wait offers nothing (whole seconds)"
}

(
	. "$COMPLETION"
	declare -F _init_completion >/dev/null && echo "Bail out! _init_completion defined"
	run_cases plain
	complete -p halo-provision >/dev/null
	ok $? "plain: complete -F is registered for halo-provision"
	done_testing
) | sed '/^1\.\./d' >"$TEST_TMP/plain.tap"
bc=/usr/share/bash-completion/bash_completion
if [ -r "$bc" ]; then
	(
		set +u
		. "$bc"
		. "$COMPLETION"
		run_cases bash-completion
		done_testing
	) | sed '/^1\.\./d' >"$TEST_TMP/bc.tap"
fi

# Renumber both runs into one TAP stream.
tap_n=0
tap_failed=0
while IFS= read -r line; do
	case $line in
	"ok "*) ok 0 "${line#ok * - }" ;;
	"not ok "*) ok 1 "${line#not ok * - }" ;;
	*) echo "$line" ;;
	esac
done < <(cat "$TEST_TMP/plain.tap" "$TEST_TMP/bc.tap" 2>/dev/null)
[ -r "$bc" ] || ok 0 "# SKIP bash-completion is not installed ($bc): only the fallback was tested"
done_testing
