#!/bin/sh
# `catena regress` end to end: a suite of three scenarios gets its golden runs with
# --update and passes; one scenario changed makes it exit 1 with exactly one failed test
# case in the JUnit report (valid against tests/data/junit.xsd); the same output and report
# with any -j; --update writes goldens whole and only when every run went well; checks,
# refused scenarios, goldens without a scenario, names of any bytes, bad suites and options,
# SIGTERM.
. "$top_srcdir/tests/lib.sh"

# Runs that write scratch directories write them here, to see they are gone after.
mkdir "$tmp/scratch"
TMPDIR=$tmp/scratch
export TMPDIR

suite=$tmp/suite
mkdir -p "$suite/ropes"
small_rope "$suite/short.json" short 20 '"trajectory": ["csv"], "every": 5'
# long, first in the suite's order, takes the longest: with -j 3 its run ends last.
small_rope "$suite/long.json" long 30000 '"trajectory": ["json"], "every": 3000'
small_rope "$suite/ropes/npy.json" npy 40 '"trajectory": ["npy"], "every": 10'

# cases ARGS...: regress with a JUnit report in $tmp/junit.xml.
regress() {
    rm -f "$tmp/junit.xml"
    catena regress "$@" --junit "$tmp/junit.xml"
}

# failures: the <failure> elements of the JUnit report.
failures() {
    grep -c '<failure' "$tmp/junit.xml"
}

# --- no goldens yet: three failures

regress "$suite"
expect_status 1 "without goldens: exit 1"
expect_out "FAIL: long: no golden run $suite/golden/long (catena regress --update writes it)" \
    "a missing golden is named, with the way to make it"
expect_eq "$(grep -c '^FAIL: ' "$tmp/out")" 3 "without goldens: three failures"
check "the JUnit report is valid" junit_valid "$tmp/junit.xml"

# --- --update writes them, then the suite passes

regress "$suite" --update
expect_status 0 "--update: exit 0"
expect_out "new: ropes/npy" "--update names the new golden"
expect_out "regress: 3 scenarios: 3 new, 0 changed, 0 unchanged" "--update counts them"
check "a golden is a run directory" test -f "$suite/golden/long/summary.json" \
    -a -f "$suite/golden/long/trajectory.json" -a -f "$suite/golden/long/events.csv"
check "a golden of a scenario in a subfolder lies in the same subfolder" \
    test -f "$suite/golden/ropes/npy/trajectory.npy"
expect_eq "$(find "$suite/golden" -name '.*' | wc -l | tr -d ' ')" 0 "--update leaves no temporary"
catena run "$suite/short.json" -q -o "$tmp/short"
check "the golden is the run's own files" cmp -s "$tmp/short/trajectory.csv" \
    "$suite/golden/short/trajectory.csv"

regress "$suite"
expect_status 0 "after --update the suite passes"
expect_eq "$(grep -c '^PASS: ' "$tmp/out")" 3 "three passes"
expect_out "regress: 3 scenarios: 3 passed, 0 failed, 0 errors" "the summary counts them"
check "the JUnit report is valid" junit_valid "$tmp/junit.xml"
expect_eq "$(grep -c '<testcase ' "$tmp/junit.xml")" 3 "the report has three test cases"
expect_eq "$(failures)" 0 "and no failure"
expect_eq "$(find "$tmp/scratch" -mindepth 1 | wc -l | tr -d ' ')" 0 "the runs' scratch is removed"

# --- one scenario changes: exit 1, exactly one failed test case, and it is that one

cp "$suite/long.json" "$tmp/long.json"
sed 's/"dt": 0.01/"dt": 0.011/' "$tmp/long.json" >"$suite/long.json"
regress "$suite"
expect_status 1 "one scenario changed: exit 1"
check "the JUnit report is valid" junit_valid "$tmp/junit.xml"
expect_eq "$(failures)" 1 "exactly one failed test case"
check "the failed one is the scenario that changed" \
    grep -q '<testcase name="long" classname="[^"]*" time="[0-9.]*">' "$tmp/junit.xml"
expect_out "FAIL: long: cannot be compared with its golden: " "the line says what differs"
expect_out "PASS: short" "the others pass"
expect_eq "$(grep -c '<error' "$tmp/junit.xml")" 0 "no error"

# The same lines and report whatever -j (the summary line holds the time; the runs go to
# one folder, whose name the reports quote).
regress "$suite" -j 1 -o "$tmp/runs"
head -n 3 "$tmp/out" >"$tmp/j1.out"
sed 's/ time="[0-9.]*"//' "$tmp/junit.xml" >"$tmp/j1.xml"
regress "$suite" -j 3 -o "$tmp/runs"
head -n 3 "$tmp/out" >"$tmp/j3.out"
sed 's/ time="[0-9.]*"//' "$tmp/junit.xml" >"$tmp/j3.xml"
check "-j 1 and -j 3 print the same lines" cmp -s "$tmp/j1.out" "$tmp/j3.out"
check "-j 1 and -j 3 write the same report" cmp -s "$tmp/j1.xml" "$tmp/j3.xml"

# --update: a run that fails (a scenario refused) means no golden is written at all.
cp -r "$suite/golden" "$tmp/golden-before"
printf '{"catena": 1, "time": {"dt": -1, "steps": 5}}\n' >"$suite/broken.json"
regress "$suite" --update
expect_status 1 "--update with a scenario that does not run: exit 1"
expect_err "1 of 4 scenarios did not run to their end with their checks passed; no golden was written" \
    "--update says why nothing was written"
expect_out "ERROR: broken: the scenario was refused: $suite/broken.json: time.dt: must be greater than 0 (got -1)" \
    "the refused scenario is an error, with the loader's message"
check "no golden changed" diff -r "$tmp/golden-before" "$suite/golden"
check "the JUnit report is valid" junit_valid "$tmp/junit.xml"
expect_eq "$(grep -c '<error type="scenario"' "$tmp/junit.xml")" 1 "the refused one is an <error>"
rm "$suite/broken.json"

regress "$suite" --update
expect_status 0 "--update with every run going well: exit 0"
expect_out "changed: long: cannot be compared with its golden: cannot compare: step 3000 is at time 33" \
    "--update names the golden that changed, and how"
expect_out "beyond the tolerance (atol 1e-09, rtol 1e-09)" "and says it is beyond the tolerance"
expect_out "unchanged: short" "and the ones that did not"
check "the golden that did not change is left alone" \
    cmp -s "$tmp/golden-before/short/summary.json" "$suite/golden/short/summary.json"
regress "$suite"
expect_status 0 "after re-blessing, the suite passes"

regress "$suite" -q
expect_status 0 "-q: exit 0"
expect_eq "$(cat "$tmp/out" | sed 's/ ([0-9.]* s)$//')" "regress: 3 scenarios: 3 passed, 0 failed, 0 errors" \
    "-q: only the summary when every scenario passes"

# --- a golden without a file the run writes passes (a newer catena writes more), and
# --update adds the file; a file of the golden the run no longer writes fails

rm "$suite/golden/short/metrics.csv"
relist "$suite/golden/short"
regress "$suite"
expect_status 0 "a golden without metrics.csv: still passes"
regress "$suite" --update
expect_out "changed: short: the golden lacks metrics.csv" "--update names the file it adds"
check "--update added it" test -f "$suite/golden/short/metrics.csv"
cp "$suite/golden/short/trajectory.csv" "$suite/golden/short/trajectory.json"
relist "$suite/golden/short"
regress "$suite"
expect_status 1 "a golden with a file the run no longer writes: exit 1"
expect_out "FAIL: short: the run did not write trajectory.json" "the lost file is named"
rm "$suite/golden/short/trajectory.json"
relist "$suite/golden/short"

# --- a golden whose scenario is gone

cp -r "$suite/golden/short" "$suite/golden/gone"
regress "$suite"
expect_status 1 "a golden without a scenario: exit 1"
expect_out "FAIL: gone: $suite/golden/gone has no scenario $suite/gone.json: remove it, or bring the scenario back" \
    "the golden without a scenario is named"
expect_eq "$(failures)" 1 "it is a failed test case"
regress "$suite" --update
expect_status 0 "--update with a golden without a scenario: exit 0"
check "--update leaves it to the user" test -d "$suite/golden/gone"
rm -r "$suite/golden/gone"

# --- checks: a failed check fails the case, named

small_rope "$tmp/checked.json" checked 20 '"trajectory": ["csv"]'
sed 's/"output"/"checks": [{"type": "max_stretch", "name": "taut", "limit": 1.0000001}], "output"/' \
    "$tmp/checked.json" >"$suite/checked.json"
regress "$suite"
expect_status 1 "a failed check: exit 1"
expect_out 'FAIL: checked: check "taut" failed: stretch ' "the check is named with what it found"
check "the JUnit report is valid" junit_valid "$tmp/junit.xml"
check "the JUnit failure is of type checks, naming the check" \
    grep -q '<failure type="checks" message="check &quot;taut&quot; failed: stretch ' "$tmp/junit.xml"
rm "$suite/checked.json"

# --- names of any bytes make valid XML

odd=$(printf 'odd\001&<"\047>\377\302')
small_rope "$tmp/odd.json" odd 10 '"trajectory": ["csv"]'
cp "$tmp/odd.json" "$suite/$odd.json"
regress "$suite"
expect_status 1 "a scenario without golden: exit 1"
check "a name with control characters and bytes that are not UTF-8 gives a valid report" \
    junit_valid "$tmp/junit.xml"
check "those bytes are written as \\xNN" grep -q 'name="odd\\x01&amp;&lt;&quot;&apos;&gt;\\xFF\\xC2"' \
    "$tmp/junit.xml"
rm "$suite/$odd.json"

# --- -o keeps the runs

regress "$suite" -o "$suite/kept"
expect_status 0 "-o: exit 0"
check "-o keeps each run and its log" test -f "$suite/kept/ropes/npy/summary.json" \
    -a -f "$suite/kept/ropes/npy.log"
regress "$suite" -o "$suite/kept"
expect_status 0 "runs kept inside the suite are no scenarios of it"
expect_out "regress: 3 scenarios: 3 passed" "still three scenarios"
rm -r "$suite/kept"

# --- a report that cannot be written fails the command, whatever the scenarios did

catena regress "$suite" --junit "$tmp/nowhere/report.xml"
expect_status 1 "a JUnit report that cannot be written: exit 1"
expect_err "catena: $tmp/nowhere/report.xml: cannot create: " "the report's file is named"

# --- bad suites and options: exit 2

regress "$tmp/nothing"
expect_status 2 "a missing suite: exit 2"
expect_err "catena: $tmp/nothing: No such file or directory" "a missing suite is named"
regress "$suite/short.json"
expect_status 2 "a file for a suite: exit 2"
expect_err "not a folder (a suite is a folder of scenario files)" "a file is not a suite"
mkdir "$tmp/empty"
regress "$tmp/empty"
expect_status 2 "an empty folder: exit 2"
expect_err "catena: $tmp/empty: no scenario file (*.json) in the suite" "an empty suite is refused"
mkdir -p "$tmp/nested/a"
cp "$tmp/odd.json" "$tmp/nested/a.json"
cp "$tmp/odd.json" "$tmp/nested/a/b.json"
regress "$tmp/nested"
expect_status 2 "a scenario beside a folder of its name: exit 2"
expect_err "a.json and a/b.json: the golden of the second would lie inside the first's (golden/a/)" \
    "the clash is named"
check "a refused suite writes no report" test ! -e "$tmp/junit.xml"
catena regress
expect_status 2 "no suite: exit 2"
catena regress "$suite" -j 0
expect_status 2 "-j 0: exit 2"
expect_err "catena: -j: expected a number of runs from 1 to 1024, got '0'" "-j is checked"
catena regress "$suite" --atol -1
expect_status 2 "--atol -1: exit 2"
catena regress "$suite" "$suite"
expect_status 2 "two suites: exit 2"

# --- SIGTERM: the runs are stopped, 143, no report

small_rope "$suite/slow.json" slow 2000000000 '"trajectory": ["csv"], "every": 100000'
"$CATENA" regress "$suite" -o "$tmp/stopped" --junit "$tmp/stopped.xml" >"$tmp/out" 2>"$tmp/err" &
pid=$!
tries=0
while [ ! -s "$tmp/stopped/slow/trajectory.csv" ] && [ ! -d "$tmp/stopped/slow" ] && [ $tries -lt 300 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
sleep 0.3
kill -TERM $pid
status=0
wait $pid || status=$?
expect_status 143 "SIGTERM: exit 143"
expect_err "interrupted by SIGTERM; no report written" "SIGTERM: says so"
check "SIGTERM: no report" test ! -e "$tmp/stopped.xml"
check "SIGTERM: the run was stopped too" json_has "$tmp/stopped/slow/summary.json" status \
    '"interrupted"'
rm "$suite/slow.json"

finish
