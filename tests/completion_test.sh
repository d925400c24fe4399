#!/bin/bash
# completion_test.sh DCTWIN COMPLETION: the generated bash completion (dctwin completion bash, in
# the build tree as dctwin.bash) completes subcommands, options, option values, files by kind and
# output-table paths (ctest cli.completion)
set -u
dctwin=$1 script=$2
[[ -f /usr/share/bash-completion/bash_completion ]] && source /usr/share/bash-completion/bash_completion
source "$script"
fail=0
complete_line() {  # words... -> COMPREPLY for the last word
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _dctwin
  echo " ${COMPREPLY[*]} "
}
expect() {  # expected-word words...
  local want=$1
  shift
  local got
  got=$(complete_line "$@")
  if [[ $got != *" $want "* ]]; then
    echo "FAIL: '$*' -> [$got], expected $want"
    fail=1
  fi
}
expect run "$dctwin" ru
expect export "$dctwin" ex
expect --threads "$dctwin" run x.yaml --thr
expect --record "$dctwin" run x.yaml --rec
expect --jobs "$dctwin" sweep s.yaml --jo
expect --long "$dctwin" export r.h5 --lo
expect /rack/T_return "$dctwin" run x.yaml --record /rack/T_ret
expect /facility/P_IT "$dctwin" export r.h5 --series /rack/T_return /facility/P_I
expect json "$dctwin" schema --format j
expect --annual "$dctwin" run x.yaml --ann
expect --top "$dctwin" report r.h5 --to
expect --threshold "$dctwin" report r.h5 --thr
expect --detail "$dctwin" estimate e.yaml --de
expect estimate "$dctwin" est
expect series "$dctwin" outputs --table s
# files by kind: a sweep's YAML, a report's results
tmp=$(mktemp -d)
touch "$tmp/s.yaml" "$tmp/r.h5" "$tmp/notes.txt"
expect "$tmp/s.yaml" "$dctwin" sweep "$tmp/"
expect "$tmp/r.h5" "$dctwin" report "$tmp/"
got=$(complete_line "$dctwin" sweep "$tmp/")
[[ $got == *notes.txt* ]] && { echo "FAIL: sweep completes notes.txt: [$got]"; fail=1; }
rm -rf "$tmp"
# the hidden commands that write these files are not offered
got=$(complete_line "$dctwin" "")
[[ $got == *" man "* || $got == *completion* ]] && { echo "FAIL: hidden command offered: [$got]"; fail=1; }
exit $fail
