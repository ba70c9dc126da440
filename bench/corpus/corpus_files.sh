# Shared by the corpus scripts (sourced): which files are a trace's own and what mtf is given.
# shellcheck shell=bash

# trace_files DIR FORMAT : the trace's own files, relative to DIR, one per line.
trace_files() {
  local dir=$1 format=$2
  (
    cd "$dir"
    case $format in
      otf2) find . -name '*.otf2' -o -name '*.def' -o -name '*.evt' -o -name '*.thumb' ;;
      paraver)
        for prv in *.prv *.prv.gz; do
          [[ -e $prv ]] || continue
          [[ $prv == *.prv.gz && -e ${prv%.gz} ]] && continue
          echo "./$prv"
        done
        find . -name '*.pcf' -o -name '*.row' ;;
      tau)
        if compgen -G 'tautrace.*.trc' >/dev/null; then
          find . -name 'tautrace.*.trc' -o -name 'events.*.edf'
        else
          find . -name 'tau.trc' -o -name 'tau.edf'
        fi ;;
    esac
  ) | sed 's|^\./||' | sort
}

# plain_files DIR SCRATCH : where the trace's files (the array `files`, trace_files' names)
# are read for the general-purpose compressors, in the global `base`: DIR, or SCRATCH with
# the gzipped ones unpacked there (a gzipped file counts as its content, as a user archiving
# the trace would give it to zstd or xz: zstd of gzip's output gains nothing); `files` then
# names them without their .gz.
plain_files() {
  local dir=$1 scratch=$2 f
  base=$dir
  printf '%s\n' "${files[@]}" | grep -q '\.gz$' || return 0
  base=$scratch && rm -rf "$base" && mkdir -p "$base"
  for f in "${files[@]}"; do
    if [[ $f == *.gz ]]; then gzip -dc "$dir/$f" >"$base/${f%.gz}"; else cp "$dir/$f" "$base/"; fi
  done
  files=("${files[@]%.gz}")
}

# mtf_input DIR FORMAT : the path mtf is given for the trace.
mtf_input() {
  local dir=$1 format=$2 f
  case $format in
    otf2) f=$(find "$dir" -maxdepth 1 -name '*.otf2' | sort | head -1) ;;
    paraver) f=$(find "$dir" -maxdepth 1 -name '*.prv' | sort | head -1)
             [[ -n $f ]] || f=$(find "$dir" -maxdepth 1 -name '*.prv.gz' | sort | head -1) ;;
    tau) f=$dir ;;
  esac
  echo "$f"
}

# trace_list : "format name dir" of every trace under $ROOTS, each name once per format
# (tests/data holds copies of some shared traces: each trace counts once).
trace_list() {
  declare -A seen
  for root in "${ROOTS[@]}"; do
    for format in otf2 paraver tau; do
      [[ -d $root/$format ]] || continue
      for dir in "$root/$format"/*/; do
        dir=${dir%/}
        name=$(basename "$dir")
        [[ -z ${seen[$format/$name]:-} ]] || continue
        seen[$format/$name]=1
        echo "$format $name $dir"
      done
    done
  done
}
