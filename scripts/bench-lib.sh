# Shared by the scripts/bench-*.sh timing scripts (sourced, not run): the machine line,
# the median of numbers on stdin, and `measure NAME COMMAND...`, which runs COMMAND $runs
# times under /usr/bin/time and prints the median/min/max wall time and the median peak
# RSS. The caller sets `runs`, `work` (a scratch directory) and, optionally, `name_width`
# (the width of the NAME column, 28 by default).

machine_line() {
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

measure() { # name, command...
  local name=$1; shift
  local t=() m=()
  for _ in $(seq "$runs"); do
    local out
    /usr/bin/time -o "$work/time.txt" -f "%e %M" "$@" >/dev/null 2>"$work/stderr.txt" ||
      { echo "$name failed:"; cat "$work/stderr.txt"; return 1; }
    out=$(tail -1 "$work/time.txt")
    t+=("${out% *}"); m+=("${out#* }")
  done
  printf "%-${name_width:-28}s median %6.3f s  (min %6.3f, max %6.3f)  peak RSS median %6.1f MB\n" "$name" \
    "$(printf '%s\n' "${t[@]}" | median)" "$(printf '%s\n' "${t[@]}" | sort -n | head -1)" \
    "$(printf '%s\n' "${t[@]}" | sort -n | tail -1)" "$(printf '%s\n' "${m[@]}" | median | awk '{print $1/1024}')"
}
