#!/bin/bash
# completion_test.sh DCTWIN SOURCE_DIR: scripts/completion/dctwin.bash completes subcommands,
# options and output-table paths (ctest cli.completion)
set -u
dctwin=$1 src=$2
[[ -f /usr/share/bash-completion/bash_completion ]] && source /usr/share/bash-completion/bash_completion
source "$src/scripts/completion/dctwin.bash"
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
exit $fail
