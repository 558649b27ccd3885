# SPDX-License-Identifier: Apache-2.0
# bash completion for hostbench(1). Installed as
# share/bash-completion/completions/hostbench; targets are completed from
# `hostbench list` of the binary being completed, so plugins added with
# --plugin-dir or HOSTBENCH_PLUGIN_PATH are offered too.

# The targets the hostbench binary $1 offers, one per line.
_hostbench_targets()
{
	"$1" list "${@:2}" 2>/dev/null |
		awk '/^Targets/ { t = 1; next } t && $1 ~ /\// { print $1 }' |
		sort -u
}

_hostbench()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion -n = || return
	else
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	fi

	local commands="run list presets describe sysinfo report compare merge
		check store history regressions dashboard export serve"
	# each command's options, as `hostbench COMMAND --help` lists them
	# (with none, run's: options before the command word go with it)
	local series="--store --host --case --since --until --label"
	local detect="--method --penalty --min-change"
	local -A options=(
		[run]="--extended --fio --format --output --set --journal --resume
			--plugin-dir --store --no-store --history --label"
		[list]="--format --output --plugin-dir"
		[presets]="--output"
		[describe]="--format --output --plugin-dir"
		[sysinfo]="--format --output --plugin-dir"
		[report]="--format --output --rank --store --figure"
		[compare]="--format --output --threshold --fail-on-regression
			--figure --by --rank --store --no-store"
		[merge]="--format --output --rank"
		[check]="--format --output --plugin-dir --reference"
		[store]="--store --host --from --tool-version"
		[history]="--format --output $series"
		[regressions]="--format --output $series --fail --ack --ignore
			$detect"
		[dashboard]="--output $series $detect"
		[export]="--format --output $series"
	)
	local serve_options="--listen --token --max-clients --max-pending
		--max-pending-per-address --max-time --idle-timeout --help"
	local command="" i
	local -a dirs=()
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		run | list | presets | describe | sysinfo | report | compare | \
			merge | check | store | history | regressions | dashboard | \
			export | serve)
			[[ -z $command ]] && command=${words[i]}
			;;
		-P | --plugin-dir)
			dirs+=(--plugin-dir "${words[i + 1]}")
			;;
		esac
	done

	if [[ $command == serve ]]; then
		case $prev in
		--listen | --token | --max-clients | --max-pending | \
			--max-pending-per-address | --max-time | --idle-timeout)
			return
			;;
		esac
		COMPREPLY=($(compgen -W "$serve_options" -- "$cur"))
		return
	fi

	case $prev in
	-f | --format)
		COMPREPLY=($(compgen -W "text json csv md html" -- "$cur"))
		return
		;;
	--figure)
		COMPREPLY=($(compgen -W "wall cpu" -- "$cur"))
		return
		;;
	--method)
		COMPREPLY=($(compgen -W "pelt binseg" -- "$cur"))
		return
		;;
	--from)
		COMPREPLY=($(compgen -W "auto hostbench fio iperf3 openssl-speed
			gbench hyperfine pyperf" -- "$cur"))
		return
		;;
	-o | --output | --journal | --resume)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-P | --plugin-dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-s | --set | --threshold | --by | --reference | --rank | --penalty | \
		--min-change | --tool-version)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${options[${command:-run}]} --help
			--version" -- "$cur"))
		return
	fi
	case $command in
	"")
		COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		;;
	run)
		COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
		;;
	compare | merge)
		COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		;;
	store)
		COMPREPLY=($(compgen -W "import" -- "$cur") $(compgen -f -- "$cur"))
		;;
	describe)
		COMPREPLY=($(compgen -W "$(_hostbench_targets "${words[0]}" \
			"${dirs[@]}")" -- "$cur"))
		;;
	esac
} &&
	complete -F _hostbench hostbench
