#!/bin/sh
# `catena catenary` and `catena run --report catenary` end to end: the files a run writes,
# the report read back from the run directory and from a trajectory file, --json, --plot,
# --step, --body and --points, and every usage and input error with its exit status 2.
. "$top_srcdir/tests/lib.sh"

# A 10-link chain between pins, and a rope pinned at one end only: 20 steps, every 5.
cat >"$tmp/chain.json" <<'JSON'
{
  "catena": 1,
  "name": "chain",
  "time": { "dt": 0.01, "steps": 20 },
  "solver": { "iterations": 50 },
  "bodies": [
    { "type": "rope", "name": "chain", "from": [0, 0], "to": [4, 0], "segments": 10,
      "length": 5, "mass": 1, "pins": ["first", "last"] },
    { "type": "rope", "name": "tail", "from": [10, 0], "to": [11, 0], "segments": 4,
      "mass": 1, "pins": ["first"] }
  ],
  "output": { "trajectory": ["csv", "npy"], "every": 5 }
}
JSON

# --- a run that writes the report

catena run -q --report catenary --plot -o "$tmp/run" "$tmp/chain.json"
expect_status 0 "run --report catenary --plot exits 0"
for f in catenary.json catenary.txt catenary.png scenario.json; do
    check "run writes $f" test -f "$tmp/run/$f"
done
check "catenary.json names the chain" json_has "$tmp/run/catenary.json" body '"chain"'
check "catenary.json: the last step" json_has "$tmp/run/catenary.json" step 20
check "catenary.json: a rigid reference" json_has "$tmp/run/catenary.json" reference '"rigid"'
check "catenary.txt has the analytic curve" grep -q '^  analytic catenary   a ' "$tmp/run/catenary.txt"
check "catenary.png is a PNG" sh -c "head -c 8 '$tmp/run/catenary.png' | od -An -c | grep -q 'P   N   G'"

catena run -q --report catenary -o "$tmp/noplot" "$tmp/chain.json"
check "no --plot, no catenary.png" test ! -e "$tmp/noplot/catenary.png"

catena validate "$tmp/chain.json"
check "validate lists no report by default" sh -c "! grep -q catenary '$tmp/out'"
catena run -q --steps 0 --report catenary -o "$tmp/zero" "$tmp/chain.json"
expect_status 0 "a report at step 0"
check "the report at step 0" json_has "$tmp/zero/catenary.json" step 0

# output.reports in the scenario does the same as --report.
catena run -q --set 'output.reports=["catenary"]' -o "$tmp/set" "$tmp/chain.json"
expect_status 0 "output.reports runs"
catena validate "$tmp/set/scenario.json"
expect_out "summary.json, catenary.json, catenary.txt" "validate lists the report's files"
check "output.reports writes catenary.json" test -f "$tmp/set/catenary.json"

catena run -q --report wave -o "$tmp/never" "$tmp/chain.json"
expect_status 2 "an unknown report exits 2"
expect_err 'output.reports[0]: unknown value "wave" (expected "catenary")' "the unknown report is named"
catena run -q --report 'a"b' -o "$tmp/never" "$tmp/chain.json"
expect_status 2 "a malformed --report exits 2"
expect_err "catena: --report: expected report names separated by commas" "--report explains its form"

# --- catena catenary on the run

# The same frame read back gives the same JSON as the run wrote (the source is the same path).
catena catenary --json "$tmp/run"
expect_status 0 "catenary --json exits 0"
check "catenary --json repeats the run's catenary.json" cmp -s "$tmp/out" "$tmp/run/catenary.json"

catena catenary "$tmp/run"
expect_status 0 "catenary exits 0"
expect_out "catenary report: $tmp/run, step 20" "the text names the run and the step"
expect_out "body chain: points 0..10, 10 links" "the text names the chain"
expect_out "solver (simulated-discrete)" "the text has the solver error"
check "catenary prints what catenary.txt holds" cmp -s "$tmp/out" "$tmp/run/catenary.txt"

catena catenary --step 5 --json "$tmp/run"
check "--step 5 reports step 5" json_has "$tmp/out" step 5
catena catenary --step last --body chain --json "$tmp/run"
check "--step last --body chain" json_has "$tmp/out" step 20
catena catenary --points 2..8 --json "$tmp/run"
expect_status 0 "--points 2..8 exits 0"
check "--points 2..8 reports 6 links" json_has "$tmp/out" links 6
check "--points has no body" json_has "$tmp/out" body null
catena catenary --points ..8 --json "$tmp/run"
expect_status 0 "--points ..8 exits 0"
check "--points ..8 starts at point 0: 8 links" json_has "$tmp/out" links 8
catena catenary --points 8.. "$tmp/run"
expect_status 2 "--points 8.. runs past the chain (points 11 to 15 are not in it): exit 2"
expect_err "catena: $tmp/run: --points 8..15: no link joins points 10 and 11" \
    "--points 8.. reaches the scenario's last point, 15"
catena catenary --points 2:8 --json "$tmp/run"
expect_status 0 "--points 2:8 (the deprecated colon) exits 0"
check "--points 2:8 is 2..8" json_has "$tmp/out" links 6
expect_err "catena: --points: '2:8': the colon is deprecated, write '2..8'" "the colon draws a warning"

catena catenary --plot "$tmp/plot.png" "$tmp/run"
expect_status 0 "--plot exits 0"
check "--plot writes the file" test -s "$tmp/plot.png"

# A trajectory file alone: scenario.json beside it, else --scenario.
catena catenary --json "$tmp/run/trajectory.csv"
expect_status 0 "a trajectory beside scenario.json"
check "the CSV gives the step" json_has "$tmp/out" step 20
mkdir "$tmp/alone"
cp "$tmp/run/trajectory.npy" "$tmp/alone/"
catena catenary "$tmp/alone/trajectory.npy"
expect_status 2 "a trajectory without scenario exits 2"
expect_err "catena: $tmp/alone/trajectory.npy: no scenario.json beside the trajectory (runs write one; pass the scenario with --scenario FILE)" \
    "the missing scenario is explained"
catena catenary --scenario "$tmp/chain.json" --step 10 --json "$tmp/alone/trajectory.npy"
expect_status 0 "--scenario with an NPY trajectory"
check "NPY frames count every 5 steps" json_has "$tmp/out" step 10

# --- errors

catena catenary
expect_status 2 "catenary without an argument exits 2"
expect_err "catena: catenary: missing RUN_DIR or TRAJECTORY" "the missing argument is named"
catena catenary "$tmp/run" "$tmp/run"
expect_status 2 "two arguments exit 2"
expect_err "catena: catenary: unexpected argument" "the extra argument is named"
catena catenary "$tmp/nowhere"
expect_status 2 "a missing run exits 2"
expect_err "catena: $tmp/nowhere: No such file or directory" "the missing run is named"
catena catenary --body chain --points 0..4 "$tmp/run"
expect_status 2 "--body with --points exits 2"
expect_err "catena: catenary: --body and --points choose the chain two ways; give one" "both choices are refused"
for bad in a..b -1..3 1-3; do
    catena catenary --points "$bad" "$tmp/run"
    expect_status 2 "--points $bad exits 2"
    expect_err "catena: --points: expected N, FIRST..LAST, FIRST.. or ..LAST (integers >= 0, both ends included), got '$bad'" "--points $bad is explained"
done
catena catenary --points 4..2 "$tmp/run"
expect_status 2 "--points 4..2 exits 2"
expect_err "catena: --points: '4..2': 4 comes after 2" "a reversed range is named"
for short in 4 4..5; do
    catena catenary --points "$short" "$tmp/run"
    expect_status 2 "--points $short exits 2"
    expect_err "--points ${short%..*}..${short#*..}: a chain needs at least 2 links: J must be at least I + 2" \
        "--points $short is too short a chain"
done
for bad in -1 ten 1e3; do
    catena catenary --step "$bad" "$tmp/run"
    expect_status 2 "--step $bad exits 2"
    expect_err "catena: --step: expected a step number or 'last', got '$bad'" "--step $bad is explained"
done
catena catenary --step 7 "$tmp/run"
expect_status 2 "a step never recorded exits 2"
expect_err "catena: $tmp/run/trajectory.npy: --step 7: no frame at that step (the trajectory holds 5 frames, steps 0..20)" \
    "the recorded steps are listed"
catena catenary --body tail "$tmp/run"
expect_status 2 "a rope with a free end exits 2"
expect_err "catena: $tmp/run: --body tail: its last point tail.4 is not pinned" "the free end is named"
catena catenary --body nope "$tmp/run"
expect_status 2 "an unknown body exits 2"
expect_err "catena: $tmp/run: --body nope: no such body" "the unknown body is named"
catena catenary --points 8..12 "$tmp/run"
expect_status 2 "points that are not a chain exit 2"
expect_err "catena: $tmp/run: --points 8..12: no link joins points 10 and 11" "the gap is named"
catena catenary --plot "$tmp/nodir/x.png" "$tmp/run"
expect_status 1 "an unwritable plot exits 1"

# No rope with both ends pinned: exit 2 and what to pass.
sed 's/"pins": \["first", "last"\]/"pins": ["first"]/' "$tmp/chain.json" >"$tmp/free.json"
catena run -q -o "$tmp/free" "$tmp/free.json"
catena catenary "$tmp/free"
expect_status 2 "no hanging rope exits 2"
expect_err "catena: $tmp/free: no rope body has both ends pinned, so there is no chain to report on (choose one with --points I..J, or --body NAME)" \
    "no hanging rope says what to pass"
catena catenary --points 0..10 --json "$tmp/free"
expect_status 0 "--points reports on any chain"

finish
