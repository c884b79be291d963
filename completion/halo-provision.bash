# bash completion for halo-provision(8)                       -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Options, the comma list of --only, files for -c/--config (and the state
# files or audits after --cluster), directories for --root, namespaces for
# --netns and interfaces for --interface. Works with or without the bash-completion
# package: without _init_completion it splits the words itself.

# Every option `halo-provision --help` prints; tests/integration/completion.sh
# fails when the two lists differ.
_halo_provision_options='--check --dry-run --validate --status --revert
--cluster --dot
-c --config --root --netns --kernel-release --only --interface --wait
--json --diff -q --quiet -v --verbose -h --help --version'

_halo_provision_subsystems='boot modules links roce rdma files storage ready'

# _halo_provision_words CUR WORD...: COMPREPLY = the WORDs starting with
# CUR. Not compgen -W: it expands its word list, and a namespace or
# interface may be named "$(cmd)"; here every name stays data.
_halo_provision_words()
{
	local cur=$1 w

	shift
	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "$cur"* ]] && COMPREPLY+=("$w")
	done
	return 0
}

# The names `ip netns list` prints ("name (id: 3)" → "name").
_halo_provision_netns()
{
	local line names=()

	while read -r line _; do
		[[ -n $line ]] && names+=("$line")
	done < <(ip netns list 2>/dev/null)
	_halo_provision_words "$1" "${names[@]}"
}

# _halo_provision_interfaces CUR [NETNS]: the host's interfaces from
# /sys/class/net, or, after --netns NETNS, that namespace's as `ip -n`
# lists them ("2: name@peer: <...>"; needs root, else nothing).
_halo_provision_interfaces()
{
	local path line names=()

	if [[ -n ${2-} ]]; then
		while IFS= read -r line; do
			line=${line#*: }
			line=${line%%: *}
			[[ -n $line ]] && names+=("${line%@*}")
		done < <(ip -n "$2" -o link show 2>/dev/null)
	else
		for path in /sys/class/net/*; do
			[[ -e $path ]] && names+=("${path##*/}")
		done
	fi
	_halo_provision_words "$1" "${names[@]}"
}

# The value of --netns NAME or --netns=NAME earlier on the line.
_halo_provision_netns_arg()
{
	local i

	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--netns)
			[[ ${words[i + 1]-} == = ]] && ((i++))
			((i + 1 < cword)) && echo "${words[i + 1]}"
			return
			;;
		--netns=?*)
			echo "${words[i]#--netns=}"
			return
			;;
		esac
	done
}

# --only a,b,<cur>: complete the last element, keep the prefix, leave out
# the subsystems already named.
_halo_provision_only()
{
	local cur=$1 prefix= last s i left=() IFS=$' \t\n'

	if [[ $cur == *,* ]]; then
		prefix=${cur%,*},
		last=${cur##*,}
	else
		last=$cur
	fi
	for s in $_halo_provision_subsystems; do
		[[ ,$prefix == *,$s,* ]] || left+=("$s")
	done
	_halo_provision_words "$last" "${left[@]}"
	# A loop, not ${COMPREPLY[@]/#/$prefix}: bash 5.2 would read an "&"
	# the user typed as the matched text.
	for i in "${!COMPREPLY[@]}"; do
		COMPREPLY[i]=$prefix${COMPREPLY[i]}
	done
	# More may follow a comma: no space after the word.
	compopt -o nospace 2>/dev/null
}

_halo_provision_files()	# _halo_provision_files CUR [-d]
{
	local IFS=$'\n'

	if [[ ${2-} == -d ]]; then
		COMPREPLY=($(compgen -d -- "$1"))
	else
		COMPREPLY=($(compgen -f -- "$1"))
	fi
	compopt -o filenames 2>/dev/null
}

_halo_provision()
{
	local cur prev words cword split=false

	COMPREPLY=()
	if declare -F _init_completion >/dev/null; then
		_init_completion -s || return
	else
		# No bash-completion: the words as bash split them; "--opt=val"
		# comes as "--opt" "=" "val" only if = is in COMP_WORDBREAKS.
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
		cur=${words[cword]}
		prev=${words[cword - 1]:-}
		if [[ $cur == --*=* ]]; then
			prev=${cur%%=*}
			cur=${cur#*=}
			split=true
		elif [[ $cur == = && $prev == --* ]]; then
			cur=
			split=true
		elif [[ $prev == = && $cword -ge 2 && ${words[cword - 2]} == --* ]]; then
			prev=${words[cword - 2]}
			split=true
		fi
	fi

	case $prev in
	-c | --config | --cluster)
		_halo_provision_files "$cur"
		return
		;;
	--root)
		_halo_provision_files "$cur" -d
		return
		;;
	--netns)
		_halo_provision_netns "$cur"
		return
		;;
	--interface)
		_halo_provision_interfaces "$cur" "$(_halo_provision_netns_arg)"
		return
		;;
	--only)
		_halo_provision_only "$cur"
		return
		;;
	--kernel-release)
		local path names=()
		for path in /lib/modules/*/; do
			path=${path%/}
			[[ -d $path ]] && names+=("${path##*/}")
		done
		_halo_provision_words "$cur" "${names[@]}"
		return
		;;
	--wait)
		# Whole seconds: nothing to offer.
		return
		;;
	esac
	$split && return

	if [[ $cur == -* ]]; then
		local IFS=$' \t\n'
		_halo_provision_words "$cur" $_halo_provision_options
		return
	fi
	# --cluster FILE...: every word after it is a file (a state file or a
	# node's --check --json).
	local i
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} == --cluster ]]; then
			_halo_provision_files "$cur"
			return
		fi
	done
}

complete -F _halo_provision halo-provision
