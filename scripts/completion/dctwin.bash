# bash completion for dctwin (installed as share/bash-completion/completions/dctwin)
# subcommands, their options, files by kind (YAML inputs, HDF5 results) and option values;
# --record / --series complete the output-table paths from `dctwin outputs --format csv`.
_dctwin() {
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local subcommands="run check schema sweep merge report outputs export"
  local sub="" i
  for ((i = 1; i < cword; i++)); do
    case " $subcommands " in *" ${words[i]} "*) sub=${words[i]}; break ;; esac
  done
  if [[ -z $sub ]]; then
    COMPREPLY=($(compgen -W "$subcommands --help --version" -- "$cur"))
    return
  fi
  local opts
  case $sub in
    run) opts="--scenario -s --duration -d --output-interval -i --output -o --power-interval -p
               --vtk --threads -t --record --quiet -q --help" ;;
    check) opts="--facility -f --help" ;;
    schema) opts="--format --file --output -o --update --help" ;;
    sweep) opts="--jobs -j --output -o --max-cases --shard --quiet -q --help" ;;
    merge) opts="--output -o --quiet -q --help" ;;
    report) opts="--output -o --help" ;;
    outputs) opts="--format -f --table --help" ;;
    export) opts="--series --output -o --long --full-width --help" ;;
  esac
  case $prev in
    --scenario | -s | --facility | -f)
      [[ $sub == outputs ]] && { COMPREPLY=($(compgen -W "markdown csv" -- "$cur")); return; }
      COMPREPLY=($(compgen -f -X '!*.y?(a)ml' -- "$cur") $(compgen -d -- "$cur")); return ;;
    --table)
      COMPREPLY=($(compgen -W "series jobs" -- "$cur")); return ;;
    --format)
      if [[ $sub == schema ]]; then COMPREPLY=($(compgen -W "json markdown" -- "$cur"))
      else COMPREPLY=($(compgen -W "markdown csv" -- "$cur")); fi
      return ;;
    --file) COMPREPLY=($(compgen -W "facility scenario sweep" -- "$cur")); return ;;
    --output | -o | --vtk | --update) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --duration | -d | --output-interval | -i | --power-interval | -p | --threads | -t | --jobs | \
      -j | --max-cases | --shard) return ;;
  esac
  # --record/--series take several patterns: complete paths while the last option was one of them
  local j
  for ((j = cword - 1; j > 0; j--)); do
    if [[ ${words[j]} == --record || ${words[j]} == --series ]]; then
      if [[ $cur != -* ]]; then
        local paths
        paths=$("${words[0]}" outputs --format csv 2>/dev/null | tail -n +2 | cut -d, -f1)
        COMPREPLY=($(compgen -W "$paths" -- "$cur"))
        return
      fi
      break
    fi
    [[ ${words[j]} == -* ]] && break
  done
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  case $sub in
    run | check | sweep | merge) COMPREPLY=($(compgen -f -X '!*.@(y?(a)ml|journal*)' -- "$cur") $(compgen -d -- "$cur")) ;;
    report | export) COMPREPLY=($(compgen -f -X '!*.h5' -- "$cur") $(compgen -d -- "$cur")) ;;
  esac
}
complete -F _dctwin dctwin
