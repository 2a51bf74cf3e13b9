#!/bin/sh
# The 6-run sweep of tests/sweep-lib.sh through GNU parallel (catena sweep --emit parallel,
# then DIR/run-parallel.sh): the same sweep.csv values as running it with catena sweep; the
# joblog lets a second call skip every finished job; a failing run makes run-parallel.sh
# exit 1 with that run failed in sweep.csv. Skipped (exit 77) without GNU parallel
# (scripts/install-cluster-deps installs it); failed instead when CATENA_REQUIRE_CLUSTER=1
# (as .ci/run sets it).
. "$top_srcdir/tests/lib.sh"

if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    why="GNU parallel is not installed (scripts/install-cluster-deps installs it)"
    if [ "${CATENA_REQUIRE_CLUSTER:-0}" = 1 ]; then
        echo "FAIL: $why (CATENA_REQUIRE_CLUSTER=1: no skipping)"
        exit 1
    fi
    echo "SKIP: $why"
    exit 77
fi
. "$top_srcdir/tests/sweep-lib.sh"
cd "$tmp" || exit 99

catena sweep six.json -o local
expect_status 0 "the sweep run here exits 0"

catena sweep six.json --emit parallel -o par
expect_status 0 "--emit parallel exits 0"
status=0
par/run-parallel.sh --jobs 3 >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 0 "run-parallel.sh exits 0"
same_table par/sweep.csv local/sweep.csv "GNU parallel gives the same sweep.csv values"
expect_eq "$(lines par/joblog.txt)" 7 "the joblog has a header and one line per run"
expect_eq "$(awk -F '\t' 'NR > 1 && $7 == 0' par/joblog.txt | wc -l | tr -d ' ')" 6 \
    "the joblog records every run with exit value 0"

# Called again, --resume-failed finds every job done in the joblog and runs none.
cp par/joblog.txt joblog-1
status=0
par/run-parallel.sh >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 0 "run-parallel.sh called again exits 0"
check "called again, it runs no job (the joblog is unchanged)" cmp -s par/joblog.txt joblog-1

# A failing run: parallel counts it, collect marks it failed, the others are done.
cat >fail.json <<'JSON'
{
  "base": "small.json",
  "mode": "zip",
  "vary": { "time.dt": [0.01, 1],
            "world.gravity": [[0, -9.81], [0, -1e11]],
            "bodies.0.pins": [["first"], []] }
}
JSON
catena sweep fail.json --emit parallel -o par-fail
status=0
par-fail/run-parallel.sh >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 1 "run-parallel.sh with a failing run exits 1"
expect_eq "$(csv_column par-fail/sweep.csv status | tr '\n' ' ')" "ok failed " \
    "the failing run is failed in sweep.csv, the other ok"
expect_eq "$(csv_column par-fail/sweep.csv exit_code | tr '\n' ' ')" "0 1 " \
    "collect derives the exit codes from the summaries"

finish
