#!/bin/sh
# catena sweep on this machine: bad sweep files (exit 2, exact messages), a 6-run product
# sweep (rows in expansion order, varied values applied, statuses), resuming (finished runs
# are skipped, changed ones run again), a failing run (exit 1, the others complete), zip,
# set, collect from run directories (missing, stale, metrics.csv, catenary.json), the
# emitted jobs.txt run by plain sh, SIGTERM, usage errors, the progress line on a terminal and
# the closing line. tests/sweep-parallel.sh and
# tests/sweep-slurm.sh run the same sweep through GNU parallel and Slurm.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sweep-lib.sh"

# --- bad sweep files: tests/data/bad-sweep/NAME.json is refused with exit 2 and exactly the
# message in NAME.err (the directory's absolute path, which messages about the base scenario
# carry, is removed first), and nothing is written.
bad=$top_srcdir/tests/data/bad-sweep
bad_abs=$(cd "$bad" && pwd -P)
n=0
for want in "$bad"/*.err; do
    name=${want##*/}
    name=${name%.err}
    n=$((n + 1))
    status=0
    (cd "$bad" && "$CATENA" sweep "$name.json" -o "$tmp/bad-$name") >"$tmp/out" 2>"$tmp/err.raw" ||
        status=$?
    sed "s|$bad_abs/||g" "$tmp/err.raw" >"$tmp/err"
    if [ "$status" -eq 2 ] && cmp -s "$tmp/err" "$want" && [ ! -e "$tmp/bad-$name" ]; then
        pass "bad sweep $name.json"
    else
        fail "bad sweep $name.json: exit $status, wrote $(ls "$tmp/bad-$name" 2>/dev/null | wc -l) files, said '$(cat "$tmp/err")', expected '$(cat "$want")'"
    fi
done
check "tests/data/bad-sweep holds cases" test "$n" -ge 20

cd "$tmp" || exit 99

# --- the 6-run sweep

catena sweep six.json --dry-run -o local
expect_status 0 "--dry-run exits 0"
expect_eq "$(lines "$tmp/out")" 6 "--dry-run prints one command per run"
expect_out "run $tmp/small.json --set solver.iterations=1 --set solver.order=forward -o local/runs/iterations=1,order=forward -q" \
    "--dry-run prints catena run with the base, the overrides and the run directory"
check "--dry-run writes nothing" test ! -e local

catena sweep six.json -o local
expect_status 0 "a sweep whose runs all finish exits 0"
check "a sweep that goes well prints one closing line" test "$(lines "$tmp/err")" = 1
check "the closing line counts the runs" \
    grep -qx 'catena: sweep: 6 runs: 6 ok, 0 failed, 0 reused (local/sweep.csv, [0-9]*s)' "$tmp/err"
check "sweep.csv is written" test -f local/sweep.csv
check "plan.json is written" test -f local/plan.json
expect_eq "$(lines local/sweep.csv)" 7 "sweep.csv: a header and one row per run"
expect_eq "$(head -n 1 local/sweep.csv)" \
    "solver.iterations,solver.order,summary.final.max_stretch,summary.parameters.iterations,summary.parameters.order,summary.steps_done,summary.wall_time,status,exit_code,name" \
    "sweep.csv: varied paths, collected paths, status, exit code, run name"
check "sweep.csv: the first row starts with the values" grep -q '^1,forward,1\.' local/sweep.csv
check "sweep.csv: the name is quoted (it holds a comma)" \
    grep -q ',ok,0,"iterations=1,order=forward"$' local/sweep.csv
expect_eq "$(csv_column local/sweep.csv name | tr '\n' ' ')" "$(echo $six_names) " \
    "rows in expansion order: the first path varies slowest"
expect_eq "$(csv_column local/sweep.csv solver.iterations | tr '\n' ' ')" "1 1 5 5 20 20 " \
    "the iterations column"
expect_eq "$(csv_column local/sweep.csv solver.order | tr '\n' ' ')" \
    "forward alternate forward alternate forward alternate " "the order column"
# The runs really ran with their values: each summary.json says so.
expect_eq "$(csv_column local/sweep.csv summary.parameters.iterations | tr '\n' ' ')" \
    "1 1 5 5 20 20 " "each run ran with its iterations"
expect_eq "$(csv_column local/sweep.csv summary.parameters.order | tr '\n' ' ')" \
    "forward alternate forward alternate forward alternate " "each run ran with its order"
expect_eq "$(csv_column local/sweep.csv summary.steps_done | tr '\n' ' ')" "20 20 20 20 20 20 " \
    "each run ran its 20 steps"
expect_eq "$(csv_column local/sweep.csv status | tr '\n' ' ')" "ok ok ok ok ok ok " "every status ok"
expect_eq "$(csv_column local/sweep.csv exit_code | tr '\n' ' ')" "0 0 0 0 0 0 " "every exit code 0"
# More Gauss-Seidel iterations hold the links closer to their rest length: with the forward
# order, the final stretch falls from 1 to 5 to 20 iterations (a sweep that mixed up its
# runs or their values would not show it).
csv_column local/sweep.csv summary.final.max_stretch | sed -n '1p;3p;5p' >"$tmp/stretch"
check "the final stretch falls with more iterations" \
    awk 'NR > 1 && !($1 < prev) { bad = 1 } { prev = $1 } END { exit bad || NR != 3 }' "$tmp/stretch"
check "the final stretch is above 1 (gravity pulls)" awk '$1 <= 1 { exit 1 }' "$tmp/stretch"
run1="local/runs/iterations=1,order=forward"
check "a run directory holds the run's outputs" test -f "$run1/trajectory.csv"
check "a run directory holds the run's log" test -f "$run1/catena.log"
check "summary.json records the overrides" \
    sh -c "tr -d ' \t\n' <'$run1/summary.json' | grep -qF '\"overrides\":[\"solver.iterations=1\",\"solver.order=forward\"]'"

# -j 1: one run at a time, the same results.
catena sweep six.json -o serial -j 1
expect_status 0 "-j 1 exits 0"
same_table serial/sweep.csv local/sweep.csv "-j 1 gives the same sweep.csv"
check "no progress line when stderr is not a terminal" sh -c "! grep -q 'run 1/6' '$tmp/err'"

# Run again: every run is reused, and the closing line says so; -q says nothing at all.
catena sweep six.json -o serial -j 1
check "the closing line counts reused runs" \
    grep -qx 'catena: sweep: 6 runs: 0 ok, 0 failed, 6 reused (serial/sweep.csv, [0-9]*s)' "$tmp/err"
catena sweep six.json -o serial -q
expect_status 0 "sweep -q exits 0"
check "sweep -q prints nothing" test ! -s "$tmp/err"

# On a terminal the sweep keeps a progress line, redrawn as each run ends (script(1) gives it
# a terminal), and erases it before the closing line.
if command -v script >/dev/null 2>&1; then
    script -qec "'$CATENA' sweep six.json -o tty -j 1" /dev/null >"$tmp/term.out" 2>&1
    tr '\r' '\n' <"$tmp/term.out" >"$tmp/term-lines"
    for k in 1 2 3 4 5 6; do
        pct=$(awk -v k=$k 'BEGIN { printf "%.0f", 100 * k / 6 }')
        check "a terminal shows the progress after run $k of 6" \
            grep -q "^run $k/6 ($pct%)  [0-9hms]* elapsed  [0-9hms?]* left" "$tmp/term-lines"
    done
    tr '\r\033' '|#' <"$tmp/term.out" >"$tmp/term-marked"
    check "the progress line is erased (CR, ESC [K), then comes the closing line" \
        grep -q '|#\[Kcatena: sweep: 6 runs: 6 ok, 0 failed, 0 reused (tty/sweep.csv' "$tmp/term-marked"
    script -qec "'$CATENA' sweep six.json -o tty-q -j 1 -q" /dev/null >"$tmp/term.out" 2>&1
    check "-q on a terminal: no progress line, no closing line" test ! -s "$tmp/term.out"
else
    echo "SKIP: script(1) is not installed: no terminal to show the progress line on"
fi

# collect builds the same sweep.csv from the run directories.
cp local/sweep.csv local-first.csv
catena sweep collect local
expect_status 0 "sweep collect on finished runs exits 0"
check "sweep collect writes the same sweep.csv, byte for byte" cmp -s local/sweep.csv local-first.csv
expect_eq "$(cat "$tmp/err")" "catena: sweep collect: 6 runs: 6 ok, 0 failed (local/sweep.csv)" \
    "sweep collect ends with its closing line"
catena sweep collect -q local
check "sweep collect -q prints nothing" test ! -s "$tmp/err"

# --- resume: finished runs are skipped. A run that runs rewrites its catena.log, so a mark
# left in every log tells the runs that ran again (no mark) from the skipped ones.

mark() {
    for d in "$1"/runs/*/; do echo mark >>"$d/catena.log"; done
}
rerun() {
    for d in "$1"/runs/*/; do grep -q mark "$d/catena.log" || echo "${d%/}"; done | wc -l |
        tr -d ' '
}
mark local
catena sweep six.json -o local
expect_status 0 "a sweep run again exits 0"
expect_eq "$(rerun local)" 0 "a sweep run again reruns no finished run"
check "a sweep run again writes the same sweep.csv" cmp -s local/sweep.csv local-first.csv

rm -r "local/runs/iterations=5,order=alternate"
catena sweep six.json -o local
expect_status 0 "a sweep with a run deleted exits 0"
expect_eq "$(rerun local)" 1 "only the deleted run runs again"
check "the deleted run is back" test -f "local/runs/iterations=5,order=alternate/summary.json"

# The same overrides on a changed base scenario are another scenario: every run again.
mark local
printf '\n' >>small.json
catena sweep six.json -o local
expect_status 0 "a sweep of a changed base scenario exits 0"
expect_eq "$(rerun local)" 6 "a changed base scenario runs every run again"

# --- a failing run: the others complete, the sweep exits 1

# The middle run falls freely under 1e11 m/s^2 with dt = 1 s and leaves the solver's bounds.
cat >fail.json <<'JSON'
{
  "base": "small.json",
  "mode": "zip",
  "vary": { "time.dt": [0.01, 1, 0.02],
            "world.gravity": [[0, -9.81], [0, -1e11], [0, -1]],
            "bodies.0.pins": [["first"], [], ["first"]] },
  "collect": ["summary.status", "summary.steps_done"]
}
JSON
catena sweep fail.json -o failing
expect_status 1 "a sweep with a failing run exits 1"
bad_run="failing/runs/dt=1,gravity=0_-100000000000,pins="
expect_err "catena: $bad_run: failed (exit 1): $tmp/small.json: diverged at step " \
    "the failing run is reported with its exit status and message"
expect_err "catena: fail.json: 1 of 3 runs did not finish (see failing/sweep.csv)" \
    "the sweep says how many runs did not finish"
check "the closing line counts the failed run" \
    grep -q '^catena: sweep: 3 runs: 2 ok, 1 failed, 0 reused (failing/sweep.csv, ' "$tmp/err"
expect_eq "$(csv_column failing/sweep.csv name | tr '\n' ' ')" \
    "dt=0.01,gravity=0_-9.81,pins=first dt=1,gravity=0_-100000000000,pins= dt=0.02,gravity=0_-1,pins=first " \
    "zip pairs the lists element by element; arrays in names are joined by _"
expect_eq "$(csv_column failing/sweep.csv world.gravity | tr '\n' ' ')" "[0,-9.81] [0,-100000000000] [0,-1] " \
    "array values appear as JSON in sweep.csv"
expect_eq "$(csv_column failing/sweep.csv status | tr '\n' ' ')" "ok failed ok " \
    "the failing run's status is failed, the others ok"
expect_eq "$(csv_column failing/sweep.csv exit_code | tr '\n' ' ')" "0 1 0 " "exit codes 0 1 0"
expect_eq "$(csv_column failing/sweep.csv summary.status | tr '\n' ' ')" "ok diverged ok " \
    "a failed run's summary is still collected"
check "the run after the failing one completed" \
    json_has "failing/runs/dt=0.02,gravity=0_-1,pins=first/summary.json" status '"ok"'

mark failing
catena sweep fail.json -o failing
expect_status 1 "the failing sweep run again still exits 1"
expect_eq "$(rerun failing)" 1 "run again, only the failed run runs again"
check "the run that ran again is the failed one" sh -c "! grep -q mark '$bad_run/catena.log'"

catena sweep collect failing
expect_status 1 "sweep collect with a failed run exits 1"
expect_err "catena: failing/runs/dt=1,gravity=0_-100000000000,pins=: failed (exit 1): diverged at step" \
    "sweep collect reports the failed run from its summary"
expect_eq "$(csv_column failing/sweep.csv status | tr '\n' ' ')" "ok failed ok " \
    "sweep collect: the same statuses"

# --- collect: missing and stale runs, metrics.csv, catenary.json, paths found nowhere

cat >extra.json <<'JSON'
{
  "base": "small.json",
  "vary": { "solver.iterations": [2, 3] },
  "collect": ["metrics.max_stretch", "catenary.fit.a", "catenary.points.1", "summary.final.nope"]
}
JSON
catena sweep extra.json -o extra --emit parallel
expect_status 0 "--emit parallel exits 0"
catena sweep collect extra
expect_status 1 "sweep collect before any run exits 1"
expect_err "catena: extra/runs/iterations=2: missing: no summary.json" "a run not yet run is missing"
expect_err "catena: sweep collect: 2 runs: 0 ok, 0 failed, 2 missing (extra/sweep.csv)" \
    "the closing line counts the missing runs"
expect_eq "$(csv_column extra/sweep.csv status | tr '\n' ' ')" "missing missing " "status missing"
expect_eq "$(csv_column extra/sweep.csv exit_code | tr '\n' ' ')" "  " "no exit code for a missing run"
check "no complaint about empty columns when no run has results" \
    sh -c "! grep -q 'is in no run' '$tmp/err'"

# A run directory left from another sweep is stale: other overrides.
mkdir -p extra/runs
cp -r "$run1" extra/runs/iterations=2
"$CATENA" run small.json --set solver.iterations=3 -q -o extra/runs/iterations=3
printf 'step,max_stretch,energy\n0,1,5\n10,1.25,4\n20,1.5,3\n' >extra/runs/iterations=3/metrics.csv
printf '{"fit": {"a": 2.5, "rms": 1e-3}, "points": [7, 8]}\n' >extra/runs/iterations=3/catenary.json
# the run as if it had written them (its manifest lists them; unlisted files are never read)
relist extra/runs/iterations=3 scenario.json trajectory.csv events.csv metrics.csv catenary.json
catena sweep collect extra
expect_status 1 "sweep collect with a stale run exits 1"
expect_err "catena: extra/runs/iterations=2: stale: summary.json is from a run with other overrides" \
    "a run directory from other overrides is stale"
expect_eq "$(csv_column extra/sweep.csv status | tr '\n' ' ')" "stale ok " "statuses stale ok"
expect_eq "$(csv_column extra/sweep.csv metrics.max_stretch | tr '\n' ' ')" " 1.5 " \
    "metrics.COLUMN is the last row of metrics.csv; a stale run collects nothing"
expect_eq "$(csv_column extra/sweep.csv catenary.fit.a | tr '\n' ' ')" " 2.5 " \
    "catenary.PATH is read from catenary.json"
expect_eq "$(csv_column extra/sweep.csv catenary.points.1 | tr '\n' ' ')" " 8 " \
    "a number in a collect path indexes an array"
expect_err "catena: $tmp/extra.json: collect[3]: \"summary.final.nope\" is in no run's summary.json (its column is empty)" \
    "a collect path found in no run is reported"

catena sweep collect "$tmp/nowhere"
expect_status 2 "sweep collect on a directory without plan.json exits 2"
expect_err "catena: $tmp/nowhere/plan.json: cannot read: No such file or directory (is $tmp/nowhere a sweep directory?)" \
    "a directory that is no sweep is named"

# --- the emitted jobs, run by plain sh (tests/sweep-parallel.sh and tests/sweep-slurm.sh
# run them with the real engines): the same sweep.csv as running here

catena sweep six.json --emit parallel -o emitted
expect_status 0 "--emit parallel on the 6-run sweep exits 0"
expect_eq "$(lines emitted/jobs.txt)" 6 "jobs.txt: one line per run"
"$CATENA" sweep six.json --dry-run -o "$tmp/emitted" >dry.txt
check "jobs.txt holds the commands --dry-run prints" cmp -s emitted/jobs.txt dry.txt
check "run-parallel.sh is executable" test -x emitted/run-parallel.sh
check "run-parallel.sh is valid sh" sh -n emitted/run-parallel.sh
check "run-parallel.sh keeps a joblog and resumes failed jobs" \
    grep -q 'parallel .*--joblog joblog.txt --resume-failed' emitted/run-parallel.sh
check "run-parallel.sh shows --sshloginfile for many machines" grep -q '^#.*--sshloginfile' emitted/run-parallel.sh
sh emitted/jobs.txt
catena sweep collect emitted
expect_status 0 "collect after running jobs.txt exits 0"
same_table emitted/sweep.csv local/sweep.csv "jobs.txt run by sh gives the same sweep.csv"

catena sweep six.json --emit slurm -o slurm-emitted
expect_status 0 "--emit slurm exits 0"
check "sweep.sbatch is an array of 6 tasks" grep -qx '#SBATCH --array=0-5' slurm-emitted/sweep.sbatch
check "sweep.sbatch is valid sh" sh -n slurm-emitted/sweep.sbatch
check "sweep.sbatch logs into slurm/" test -d slurm-emitted/slurm
# Task i runs line i+1: run task 4 by hand.
SLURM_ARRAY_TASK_ID=4 sh slurm-emitted/sweep.sbatch
check "sweep.sbatch task 4 runs the fifth run" test -f "slurm-emitted/runs/iterations=20,order=forward/summary.json"
check "sweep.sbatch task 4 runs only it" test "$(ls slurm-emitted/runs | wc -l)" -eq 1
mkdir "$tmp/with space"
catena sweep six.json --emit slurm -o "with space/s"
expect_status 2 "--emit slurm into a path with a space exits 2"
expect_err "#SBATCH --output cannot carry" "the path Slurm cannot take is explained"

# Paths that need quoting: a base scenario in a directory named with a space and a quote.
odd="$tmp/it's here"
mkdir "$odd"
cp small.json six.json "$odd/"
catena sweep "$odd/six.json" --emit parallel -o "$odd/out"
expect_status 0 "--emit parallel with a quote in the paths exits 0"
sh "$odd/out/jobs.txt"
catena sweep collect "$odd/out"
expect_status 0 "jobs.txt quotes its paths for sh"
same_table "$odd/out/sweep.csv" local/sweep.csv "quoted jobs give the same sweep.csv"

# --- set: overrides common to every run, before the varied ones

cat >fixed.json <<'JSON'
{
  "base": "small.json",
  "set": { "time.steps": 7, "output.every": 7 },
  "vary": { "solver.iterations": [2, 3] },
  "collect": ["summary.steps_done"]
}
JSON
catena sweep fixed.json -o fixed
expect_status 0 "a sweep with set exits 0"
expect_eq "$(head -n 1 fixed/sweep.csv)" "solver.iterations,summary.steps_done,status,exit_code,name" \
    "set adds no column to sweep.csv"
# catena-sweep(5) gives the header in the order it is written: the run's name last
expect_eq "$(sed -n 's/^\.IB VARIED_PATH\.\.\. , COLLECTED_PATH\.\.\. ,\(.*\)$/\1/p' \
    "$top_srcdir/man/catena-sweep.5")" "status,exit_code,name" \
    "catena-sweep(5) documents sweep.csv's header as written, the run's name last"
expect_eq "$(csv_column fixed/sweep.csv summary.steps_done | tr '\n' ' ')" "7 7 " \
    "every run got the common override"
check "summary.json records the common overrides first" \
    sh -c "tr -d ' \t\n' <fixed/runs/iterations=2/summary.json | grep -qF '\"overrides\":[\"time.steps=7\",\"output.every=7\",\"solver.iterations=2\"]'"
mark fixed
catena sweep fixed.json -o fixed
expect_eq "$(rerun fixed)" 0 "a sweep with set, run again, reruns nothing"
sed 's/"time.steps": 7/"time.steps": 8/' fixed.json >fixed8.json
cp fixed.json fixed7.json
cp fixed8.json fixed.json
catena sweep fixed.json -o fixed
expect_eq "$(rerun fixed)" 2 "a changed common override runs every run again"
cp fixed7.json fixed.json

# --- --catena: the program the runs use; a bare name is looked up in PATH

mkdir bin
ln -s "$CATENA" bin/catena
status=0
PATH=$tmp/bin:$PATH "$CATENA" sweep six.json -o by-name --catena catena >"$tmp/out" 2>"$tmp/err" ||
    status=$?
expect_status 0 "--catena catena runs the catena found in PATH"
same_table by-name/sweep.csv local/sweep.csv "--catena gives the same sweep.csv"
catena sweep six.json -o nowhere --catena "$tmp/no-such-catena"
expect_status 1 "--catena naming no program: every run fails, exit 1"
expect_err "catena: nowhere/runs/iterations=1,order=forward: failed (exit 127): cannot run $tmp/no-such-catena: No such file or directory" \
    "a run whose program cannot start says so, with exit status 127"
expect_eq "$(csv_column nowhere/sweep.csv status | tr '\n' ' ')" "failed failed failed failed failed failed " \
    "every run failed"
check "no complaint about empty columns when no run wrote the files" \
    sh -c "! grep -q 'is in no run' '$tmp/err'"

# --- SIGTERM: running runs get it too and stop; the sweep writes what it has and exits 143

sed 's/"steps": 20/"steps": 2000000000/' small.json >long.json
printf '{"base": "long.json", "vary": {"solver.iterations": [1, 2]}}\n' >long-sweep.json
"$CATENA" sweep long-sweep.json -o long -j 1 >"$tmp/out" 2>"$tmp/err" &
pid=$!
tries=0
while [ ! -f long/runs/iterations=1/catena.log ] && [ $tries -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
sleep 0.3
kill -TERM $pid
status=0
wait $pid || status=$?
expect_status 143 "SIGTERM stops a sweep with exit 143"
expect_eq "$(csv_column long/sweep.csv status | tr '\n' ' ')" "failed missing " \
    "the running run failed, the next one never started"
expect_eq "$(csv_column long/sweep.csv exit_code | tr '\n' ' ')" "143  " \
    "the running run was stopped by SIGTERM too"
check "the stopped run recorded why" json_has long/runs/iterations=1/summary.json status '"interrupted"'

# --- usage

catena sweep
expect_status 2 "sweep without a file exits 2"
expect_err "catena: sweep: missing SWEEP" "a missing sweep file is reported"
catena sweep six.json -j 0
expect_status 2 "-j 0 exits 2"
expect_err "catena: --jobs: expected a whole number from 1 to 4096, got '0'" "a bad -j is explained"
catena sweep six.json --emit make
expect_status 2 "--emit with an unknown engine exits 2"
expect_err "catena: --emit: unknown engine 'make' (valid: parallel, slurm)" "the engines are listed"
catena sweep six.json six.json
expect_status 2 "two sweep files exit 2"
expect_err "catena: sweep: unexpected argument 'six.json'" "the extra argument is named"
catena sweep collect
expect_status 2 "sweep collect without a directory exits 2"
expect_err "catena: sweep collect: missing DIR" "a missing directory is reported"
catena sweep nope.json
expect_status 2 "a missing sweep file exits 2"
expect_err "catena: nope.json: cannot read: No such file or directory" "the missing file is named"

# The default directory: sweeps/NAME.
mkdir cwd
status=0
(cd cwd && "$CATENA" sweep ../six.json) >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 0 "a sweep without -o exits 0"
check "a sweep without -o writes sweeps/NAME/sweep.csv" test -f cwd/sweeps/six/sweep.csv

finish
