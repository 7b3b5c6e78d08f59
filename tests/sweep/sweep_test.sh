#!/bin/sh
# pf-sweep tests, one CTest test per subcommand:
#   sweep_test.sh TEST PF-SWEEP PF-INVERSE WORKDIR [MPIEXEC]
# TEST: ranks (1, 2, 3 ranks give byte-identical CSVs), term (SIGTERM mid-sweep, then resume),
# kill (one rank SIGKILLed mid-sweep, then resume), refuse (bad ranges / unknown keys refused
# before any run, the message naming them), bench (the scaling benchmark runs and reports),
# inverse (the refinement lands closer to the target than the map's nearest point).
# Without MPIEXEC (pf-sweep built without MPI) every sweep is one process: `ranks` then compares
# repeated runs only, and `kill` kills that process.
set -eu
TEST=$1 SWEEP=$2 INVERSE=$3 WORK=$4 MPIEXEC=${5:-}
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"

fail() {
  echo "FAIL ($TEST): $*" >&2
  exit 1
}
# OpenMPI refuses root without --allow-run-as-root; --oversubscribe lets 3 ranks share 2 cores.
MPIFLAGS=""
if [ -n "$MPIEXEC" ] && "$MPIEXEC" --allow-run-as-root --version 2>&1 | grep -Eqi "open ?mpi|openrte|open-mpi"; then
  MPIFLAGS="--allow-run-as-root --oversubscribe"
fi
# run NP ARGS...: pf-sweep on NP ranks (one process without MPI)
run() {
  np=$1
  shift
  if [ -n "$MPIEXEC" ]; then
    # shellcheck disable=SC2086
    "$MPIEXEC" $MPIFLAGS -np "$np" "$SWEEP" "$@"
  else
    "$SWEEP" "$@"
  fi
}
lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

# A small shaking-table map: 2 modes x 8 x 8 points, 0.2 s each (about 10 ms per run).
cat >map.sweep <<'EOF'
scene    = shaking-table
case     = excitation-1
friction = pade stock
set      = A_x=1 A_y=1
duration = 0.2
grid omega_a = 200 2000 8
grid omega_b = 200 2000 8
metrics  = final_x final_y distance direction final_wz
EOF
NPOINTS=128

# check_csv FILE: complete (header + every point, in index order) and every run ok
check_csv() {
  [ -f "$1" ] || fail "$1 was not written"
  [ "$(lines "$1")" -eq $((NPOINTS + 1)) ] || fail "$1 has $(lines "$1") lines, expected $((NPOINTS + 1))"
  awk -F, 'NR > 1 && ($1 != NR - 2 || $NF != "ok") { print "row " NR ": " $0; bad = 1 } END { exit bad }' "$1" ||
    fail "$1: rows out of order or failed"
}

# interrupted HOW: start on 3 ranks (1 without MPI), stop it once 10 rows are checkpointed,
# resume, and compare with an uninterrupted run
interrupted() {
  how=$1
  # runs five times longer than map.sweep's, so that the rest of the sweep takes seconds after
  # the 10th checkpointed row even on an idle machine (with 0.2 s runs, 3 ranks finished the
  # whole sweep between two polls of the checkpoint and the stop came too late)
  sed 's/^duration = 0.2$/duration = 1.0/' map.sweep >long.sweep
  mv long.sweep map.sweep
  grep -q '^duration = 1.0$' map.sweep || fail "map.sweep's duration line changed; update interrupted()"
  run 1 map.sweep --out ref.csv --quiet || fail "reference sweep failed"
  check_csv ref.csv
  np=3
  # a simple command in the background, so that $! is mpiexec (or pf-sweep) itself
  if [ -n "$MPIEXEC" ]; then
    # shellcheck disable=SC2086
    "$MPIEXEC" $MPIFLAGS -np $np "$SWEEP" map.sweep --out cut.csv >cut1.log 2>&1 &
  else
    "$SWEEP" map.sweep --out cut.csv >cut1.log 2>&1 &
  fi
  pid=$!
  tries=0
  while [ "$(lines cut.csv.ckpt)" -lt 11 ]; do
    tries=$((tries + 1))
    [ $tries -lt 1200 ] || fail "no checkpoint rows after 60 s"
    [ ! -f cut.csv ] || fail "the sweep finished before it could be stopped (make map.sweep longer)"
    sleep 0.05
  done
  if [ "$how" = term ]; then
    kill -TERM $pid
  elif [ -n "$MPIEXEC" ]; then # SIGKILL the rank 2 process (a worker), found by its environment
    victim=""
    for p in $(pgrep -P $pid); do
      if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=2; then victim=$p; fi
    done
    [ -n "$victim" ] || fail "rank 2 not found among mpirun's children ($(pgrep -P $pid | tr '\n' ' '))"
    kill -KILL "$victim"
  else
    kill -KILL $pid
  fi
  rc=0
  wait $pid || rc=$?
  cat cut1.log
  [ $rc -ne 0 ] || fail "the stopped sweep exited 0"
  [ ! -f cut.csv ] || fail "the stopped sweep wrote its CSV"
  done_rows=$(($(lines cut.csv.ckpt) - 1))
  [ $done_rows -ge 10 ] && [ $done_rows -lt $NPOINTS ] ||
    fail "checkpoint holds $done_rows rows: expected between 10 and $((NPOINTS - 1))"
  # a torn last line (killed mid-write) must be dropped and redone: simulate one
  printf '999' >>cut.csv.ckpt
  run $np map.sweep --out cut.csv >cut2.log 2>&1 || { cat cut2.log; fail "resumed sweep failed"; }
  cat cut2.log
  grep -q "resuming from cut.csv.ckpt: $done_rows of $NPOINTS points done" cut2.log ||
    fail "the resumed sweep did not take the $done_rows checkpointed rows"
  grep -q "$NPOINTS points ($done_rows from the checkpoint, $((NPOINTS - done_rows)) run" cut2.log ||
    fail "the resumed sweep redid finished points or skipped some"
  check_csv cut.csv
  cmp ref.csv cut.csv || fail "resumed CSV differs from the uninterrupted one"
  [ ! -f cut.csv.ckpt ] || fail "checkpoint left behind after completion"
}

case $TEST in
ranks)
  run 1 map.sweep --out r1.csv --quiet || fail "1 rank failed"
  check_csv r1.csv
  for np in 2 3; do
    run $np map.sweep --out r$np.csv --quiet || fail "$np ranks failed"
    check_csv r$np.csv
    cmp r1.csv r$np.csv || fail "$np ranks: CSV differs from 1 rank"
  done
  # the modes must differ (the comparison is not between empty or constant files)
  [ "$(awk -F, 'NR > 1 { print $5 }' r1.csv | sort -u | wc -l)" -gt 50 ] || fail "final_x hardly varies"
  ;;
term) interrupted term ;;
kill) interrupted kill ;;
refuse)
  # each spec must be refused with status 2, the message naming the culprit, nothing run; the
  # first and the last on 2 ranks (every rank must leave cleanly), the others in one process
  nref=0
  refused() {
    name=$1 expect=$2
    nref=$((nref + 1))
    rc=0
    if [ $nref -eq 1 ] || [ $nref -eq 8 ]; then
      run 2 bad.sweep --out bad.csv >bad.log 2>&1 || rc=$?
    else
      "$SWEEP" bad.sweep --out bad.csv >bad.log 2>&1 || rc=$?
    fi
    cat bad.log
    [ $rc -eq 2 ] || fail "$name: exit status $rc, expected 2"
    grep -q "pf-sweep: bad.sweep: .*$expect" bad.log || fail "$name: message does not name '$expect'"
    grep -q "nothing was run" bad.log || fail "$name: message does not say nothing was run"
    [ ! -f bad.csv ] && [ ! -f bad.csv.ckpt ] || fail "$name: files written"
  }
  head -4 map.sweep >base
  { cat base; echo "grid omega_a = 2000 200 4"; echo "metrics = final_x"; } >bad.sweep
  refused "reversed range" "omega_a = 2000 200 4: lo 2000 > hi 200"
  { cat base; echo "grid omega_a = 200 2000 0"; echo "metrics = final_x"; } >bad.sweep
  refused "zero count" "count 0"
  { cat base; echo "normal omega_a = 500 -3"; echo "samples = 4"; echo "metrics = final_x"; } >bad.sweep
  refused "negative sd" "sd -3"
  { cat base; echo "grid omgea_a = 200 2000 4"; echo "metrics = final_x"; } >bad.sweep
  refused "unknown swept key" "'omgea_a': unknown key for shaking-table"
  { cat base; echo "set = A_q=1"; echo "metrics = final_x"; } >bad.sweep
  refused "unknown set key" "set A_q=1: unknown key"
  { cat base; echo "metrics = final_x wobble"; } >bad.sweep
  refused "unknown metric" "unknown metric 'wobble'"
  { cat base; echo "frobnicate = 3"; echo "metrics = final_x"; } >bad.sweep
  refused "unknown spec key" "unknown key 'frobnicate'"
  # the scene's own range, at the last point of the design only: every point is checked first
  { cat base; echo "list omega_a = 300 400 500 -7"; echo "metrics = final_x"; } >bad.sweep
  refused "value out of the scene's range" "omega_a=-7: expected a value in"
  ;;
bench)
  out=$(run 2 map.sweep --bench 8) || fail "--bench failed"
  echo "$out"
  echo "$out" | grep -q '"name": "sweep_ranks", "ranks": 1, "points": 8' || fail "no 1-rank figure"
  if [ -n "$MPIEXEC" ]; then
    echo "$out" | grep -q '"name": "sweep_ranks", "ranks": 2, "points": 8' || fail "no 2-rank figure"
    echo "$out" | grep -q '"efficiency": [0-9.]*, "rows_identical": true' || fail "no efficiency or rows differ"
  fi
  ;;
inverse)
  # target: where the ball ends at (omega_a, omega_b) = (1000, 1010), not a grid point. Off the
  # diagonal the map is flat (micrometres); along omega_a = omega_b (in-phase components: a
  # straight-line vibration) the ball drifts further across the slope, and the ridge is about
  # 2 pi / duration wide, so the target lies between the grid's diagonal and off-diagonal values
  sed -e 's/^friction.*/friction = pade/' -e '/^grid/d' -e '/^metrics/d' map.sweep >one.sweep
  printf 'list omega_a = 1000\nlist omega_b = 1010\nmetrics = final_x final_y\n' >>one.sweep
  "$SWEEP" one.sweep --out one.csv --quiet || fail "target run failed"
  target=$(awk -F, 'NR == 2 { print $5 "," $6 }' one.csv)
  sed -e 's/^friction.*/friction = pade/' map.sweep >pade.sweep
  "$SWEEP" pade.sweep --out map.csv --quiet || fail "map sweep failed"
  res=$("$INVERSE" --spec pade.sweep --map map.csv --friction pade --target "$target" --out . --max-evals 60) ||
    fail "pf-inverse failed"
  echo "$res"
  echo "$res" | awk -v RS=', ' -F': ' '$1 ~ /"start_miss"/ { s = $2 } $1 ~ /"miss"/ { m = $2 }
    END { if (!(m < 0.1 * s)) { print "miss " m " not below a tenth of the map start " s; exit 1 } }' ||
    fail "the refinement did not improve on the map"
  [ "$(lines inverse_trajectory.csv)" -gt 100 ] || fail "no trajectory"
  ;;
*) fail "unknown test $TEST" ;;
esac
echo "PASS ($TEST)"
