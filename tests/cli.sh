#!/bin/sh
# The command line end to end: help and version, usage errors (exit 2), the files a run
# writes and how its options change them, determinism, validate, write errors on stdout
# (exit 1), a diverging run (exit 1, partial output kept) and SIGTERM (exit 143).
. "$top_srcdir/tests/lib.sh"

# A 5-point rope pinned at one end: 20 steps recorded every 5 = frames 0, 5, 10, 15, 20.
small_rope "$tmp/small.json" small 20 '"trajectory": ["csv", "json", "npy"], "every": 5'
points=5

# --- help, version, usage errors

for opt in --help -h help; do
    catena $opt
    expect_status 0 "catena $opt exits 0"
    expect_out "Usage: catena COMMAND" "catena $opt prints the usage"
done
catena run --help
expect_status 0 "catena run --help exits 0"

catena --version
expect_status 0 "--version exits 0"
check "--version prints 'catena VERSION'" grep -qx 'catena [0-9][0-9.]*' "$tmp/out"

catena --bogus
expect_status 2 "unknown option exits 2"
expect_err "catena: unrecognized option '--bogus'" "unknown option is named"
expect_err "Try 'catena --help'" "unknown option gives a hint"

catena run --bogus "$tmp/small.json"
expect_status 2 "unknown run option exits 2"
expect_err "catena: unrecognized option '--bogus'" "unknown run option is named"

catena run --steps
expect_status 2 "option without its argument exits 2"
expect_err "requires an argument" "missing argument is reported"

catena frobnicate
expect_status 2 "unknown command exits 2"
expect_err "catena: unknown command 'frobnicate'" "unknown command is named"
expect_err "Try 'catena --help'" "unknown command gives a hint"

catena
expect_status 2 "no command exits 2"
expect_err "catena: missing command" "missing command is reported"

catena run
expect_status 2 "run without a scenario exits 2"
expect_err "catena: run: missing SCENARIO" "missing scenario is reported"

catena run "$tmp/small.json" "$tmp/small.json"
expect_status 2 "run with two scenarios exits 2"
expect_err "unexpected argument" "extra argument is reported"

catena run --format csv,bogus -o "$tmp/never" "$tmp/small.json"
expect_status 2 "unknown format exits 2"
expect_err "catena: --format: unknown format 'bogus' (valid: csv, json, npy)" \
    "unknown format lists the valid ones"

catena run --set nonsense -o "$tmp/never" "$tmp/small.json"
expect_status 2 "--set without = exits 2"
expect_err "expected PATH=VALUE" "--set without = is explained"

catena run --set solver.bogus=1 -o "$tmp/never" "$tmp/small.json"
expect_status 2 "--set with an unknown path exits 2"
expect_err "solver.bogus" "--set names the bad path"

catena run --steps -3 -o "$tmp/never" "$tmp/small.json"
expect_status 2 "--steps with a negative count exits 2"
expect_err "catena: --steps: must be at least 0 (got -3)" \
    "--steps is checked as time.steps, and the message names the option"
check "nothing is written for bad input" test ! -e "$tmp/never"

# --- a run and its files

catena run -o "$tmp/a" "$tmp/small.json"
expect_status 0 "run exits 0"
check "run prints nothing when all is well" test ! -s "$tmp/err"
for f in trajectory.csv trajectory.json trajectory.npy trajectory-frames.npy metrics.csv \
    summary.json scenario.json events.csv; do
    check "run writes $f" test -f "$tmp/a/$f"
done
expect_eq "$(find "$tmp/a" -type f | wc -l | tr -d ' ')" 8 "run leaves no temporary file"
check "events.csv: only its header when nothing happens" \
    test "$(cat "$tmp/a/events.csv")" = "step,time,kind,link,point_a,point_b,stretch,force"
expect_eq "$(lines "$tmp/a/trajectory.csv")" $((1 + 5 * points)) "csv: a header and 5 frames"
check "csv header" grep -qx 'step,time,point,x,y' "$tmp/a/trajectory.csv"
expect_eq "$(grep -o '"step"' "$tmp/a/trajectory.json" | wc -l | tr -d ' ')" 5 "json: 5 frames"
check "npy: shape (5, 5, 2)" grep -qaF "'shape': (5, $points, 2)" "$tmp/a/trajectory.npy"
npy_size=$(wc -c <"$tmp/a/trajectory.npy" | tr -d ' ')
expect_eq $(((npy_size - 5 * points * 2 * 8) % 64)) 0 "npy: 64-byte header then 5 frames of f8"
check "summary: status ok" json_has "$tmp/a/summary.json" status '"ok"'
check "summary: 20 steps done" json_has "$tmp/a/summary.json" steps_done 20

# Determinism: the same scenario twice gives the same bytes, in separate directories.
catena run -o "$tmp/b" "$tmp/small.json"
expect_status 0 "second run exits 0"
for f in trajectory.csv trajectory.json trajectory.npy; do
    check "two runs give the same $f" cmp -s "$tmp/a/$f" "$tmp/b/$f"
done

# Default output directory: runs/NAME under the current directory.
mkdir "$tmp/cwd"
status=0
(cd "$tmp/cwd" && "$CATENA" run -q "$tmp/small.json") >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 0 "run without -o exits 0"
check "run without -o writes runs/NAME" test -f "$tmp/cwd/runs/small/trajectory.csv"

# --steps, --every and --format: steps 7 every 2 = frames 0, 2, 4, 6; csv only.
catena run --steps 7 --every 2 --format csv -q -o "$tmp/c" "$tmp/small.json"
expect_status 0 "run with --steps --every --format exits 0"
expect_eq "$(lines "$tmp/c/trajectory.csv")" $((1 + 4 * points)) "--steps 7 --every 2: 4 frames"
check "--format csv writes no json" test ! -e "$tmp/c/trajectory.json"
check "--format csv writes no npy" test ! -e "$tmp/c/trajectory.npy"
check "--steps 7 runs 7 steps" json_has "$tmp/c/summary.json" steps_done 7
check "--every 2 is recorded" json_has "$tmp/c/summary.json" every 2

catena run --format npy,json -o "$tmp/d" "$tmp/small.json"
expect_status 0 "run with --format npy,json exits 0"
check "--format npy,json writes npy" test -f "$tmp/d/trajectory.npy"
check "--format npy,json writes json" test -f "$tmp/d/trajectory.json"
check "--format npy,json writes no csv" test ! -e "$tmp/d/trajectory.csv"

# --set: any scalar by its path; the dedicated options win over --set of the same path.
catena run --set solver.iterations=40 --set time.steps=3 --set output.every=1 \
    --every 3 -o "$tmp/e" "$tmp/small.json"
expect_status 0 "run with --set exits 0"
check "--set solver.iterations=40 takes effect" json_has "$tmp/e/summary.json" iterations 40
check "--set time.steps=3 takes effect" json_has "$tmp/e/summary.json" steps_done 3
expect_eq "$(lines "$tmp/e/trajectory.csv")" $((1 + 2 * points)) "--every 3 wins over --set"

# scenario.json is the effective scenario: run again, it gives the same bytes, overrides
# included, and the name the first run took from its file name.
sed '/"name": "small",/d' "$tmp/small.json" >"$tmp/unnamed.json"
catena run --set solver.iterations=40 --steps 3 -o "$tmp/e1" "$tmp/unnamed.json"
expect_status 0 "run of an unnamed scenario exits 0"
catena run -o "$tmp/e2" "$tmp/e1/scenario.json"
expect_status 0 "scenario.json runs"
check "scenario.json reproduces the run" cmp -s "$tmp/e1/trajectory.csv" "$tmp/e2/trajectory.csv"
check "scenario.json reproduces itself" cmp -s "$tmp/e1/scenario.json" "$tmp/e2/scenario.json"
check "scenario.json keeps the overrides" json_has "$tmp/e1/scenario.json" iterations 40
check "scenario.json names the scenario" json_has "$tmp/e1/scenario.json" name '"unnamed"'

# --- validate

catena validate "$tmp/small.json"
expect_status 0 "validate exits 0"
check "validate prints the point count" grep -Eq '^points +5$' "$tmp/out"
check "validate prints the link count" grep -Eq '^links +4$' "$tmp/out"
check "validate prints the pin count" grep -Eq '^pins +1$' "$tmp/out"
check "validate prints the steps" grep -Eq '^steps +20$' "$tmp/out"
check "validate prints dt" grep -Eq '^dt +0.01 s$' "$tmp/out"
check "validate prints no constraint families a scenario lacks" \
    sh -c "! grep -Eq '^(angles|areas|faces) ' '$tmp/out'"

catena validate "$top_srcdir/scenarios/ragdoll-fall.json" "$top_srcdir/scenarios/jelly.json"
expect_status 0 "validate describes generated bodies"
check "validate prints a ragdoll's joint limits" grep -Eq '^angles +9$' "$tmp/out"
check "validate prints a soft body's area" grep -Eq '^areas +1$' "$tmp/out"
check "validate prints a soft body's triangles" grep -Eq '^faces +24$' "$tmp/out"

printf '{"catena": 1,\n  "name": }\n' >"$tmp/broken.json"
catena validate "$tmp/small.json" "$tmp/broken.json"
expect_status 2 "validate with an invalid scenario exits 2"
expect_out "small" "validate still describes the valid scenario"
expect_err "catena: $tmp/broken.json:2:" "validate names the invalid file and line"

if [ -w /dev/full ]; then
    status=0
    "$CATENA" validate "$tmp/small.json" >/dev/full 2>"$tmp/err" || status=$?
    expect_status 1 "validate to a full stdout exits 1"
    expect_err "catena: write error on standard output" "a full stdout is reported"
    status=0
    "$CATENA" --help >/dev/full 2>"$tmp/err" || status=$?
    expect_status 1 "--help to a full stdout exits 1"
fi

# --- divergence: free fall from rest with dt = 1 s and g = 1e11 m/s^2 leaves the solver's
# bounds within a few steps; the frames before that stay, complete.
cat >"$tmp/diverge.json" <<'JSON'
{
  "catena": 1,
  "name": "diverge",
  "dimensions": 2,
  "time": { "dt": 1, "steps": 100 },
  "world": { "gravity": [0, -1e11] },
  "bodies": [
    { "type": "rope", "name": "rope", "from": [0, 0], "to": [2, 0], "segments": 2, "mass": 1,
      "pins": [] }
  ],
  "output": { "trajectory": ["csv", "npy"], "every": 1 }
}
JSON
catena run -o "$tmp/f" "$tmp/diverge.json"
expect_status 1 "a diverging run exits 1"
expect_err "diverged at step " "divergence is reported"
expect_err "point rope." "divergence names the point"
step=$(sed -n 's/.*diverged at step \([0-9]*\).*/\1/p' "$tmp/err")
check "summary: status diverged" json_has "$tmp/f/summary.json" status '"diverged"'
# Steps 0 .. step-1 were recorded, every one whole.
expect_eq "$(lines "$tmp/f/trajectory.csv")" $((1 + ${step:-0} * 3)) "diverged run keeps whole frames"
check "diverged run commits its npy" grep -qaF "'shape': (${step:-0}, 3, 2)" "$tmp/f/trajectory.npy"

# --- SIGTERM: far more steps than the test waits for; the run stops, commits, says so.
sed -e 's/"steps": 20/"steps": 2000000000/' -e 's/"every": 5/"every": 100000/' \
    "$tmp/small.json" >"$tmp/long.json"
"$CATENA" run -q -o "$tmp/g" "$tmp/long.json" >"$tmp/out" 2>"$tmp/err" &
pid=$!
# The run catches signals before it creates its directory, so once that exists a SIGTERM
# is handled, not fatal.
tries=0
while [ ! -d "$tmp/g" ] && [ $tries -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
sleep 0.2
kill -TERM $pid
status=0
wait $pid || status=$?
expect_status 143 "SIGTERM exits 143"
expect_err "interrupted by SIGTERM" "interruption is reported"
check "summary: status interrupted" json_has "$tmp/g/summary.json" status '"interrupted"'
check "interrupted run commits its csv" test -f "$tmp/g/trajectory.csv"
expect_eq $((($(lines "$tmp/g/trajectory.csv") - 1) % points)) 0 "interrupted run keeps whole frames"
expect_eq "$(find "$tmp/g" -name '*.tmp*' | wc -l | tr -d ' ')" 0 \
    "interrupted run leaves no temporary file"

# --- the world: a cut logged in events.csv, the reserved points in every frame, validate's
# lines, and --until-settled stopping a damped run early.
cat >"$tmp/cut.json" <<'JSON'
{
  "catena": 1,
  "name": "cut",
  "time": { "dt": 0.01, "steps": 30 },
  "bodies": [
    { "type": "rope", "name": "rope", "from": [0, 0], "to": [1, 0], "segments": 4,
      "mass": 1, "pins": ["first"] }
  ],
  "obstacles": [ { "type": "plane", "point": [0, -2], "normal": [0, 1] } ],
  "events": [ { "time": 0.1, "cut": { "link": "rope.1" } } ],
  "output": { "trajectory": ["csv", "npy"], "every": 10 }
}
JSON
catena validate "$tmp/cut.json"
expect_status 0 "validate a scenario with a cut"
expect_out "obstacles   1 (plane 1)" "validate lists the obstacles"
expect_out "events      1 (cut 1)" "validate lists the events"
expect_out "reserved    points 5..6 and link 4 for the cut" "validate lists the reserved points"
expect_out "events.csv" "validate lists events.csv"
catena run -q -o "$tmp/h" "$tmp/cut.json"
expect_status 0 "run with a cut exits 0"
check "events.csv logs the cut at step 10" grep -q '^10,0.1,cut,1,1,2,' "$tmp/h/events.csv"
check "summary counts the cut" json_has "$tmp/h/summary.json" cut 1
check "npy keeps the reserved points: shape (4, 7, 2)" \
    grep -qaF "'shape': (4, 7, 2)" "$tmp/h/trajectory.npy"
expect_eq "$(lines "$tmp/h/trajectory.csv")" $((1 + 4 * 7)) "csv: 4 frames of 7 points"

catena run -q -o "$tmp/i" --until-settled 0.05 --set solver.damping=0.9 --steps 5000 \
    "$tmp/small.json"
expect_status 0 "--until-settled exits 0"
check "--until-settled stops early" json_has "$tmp/i/summary.json" status '"ok"'
steps_done=$(tr -d ' \t\n' <"$tmp/i/summary.json" | sed 's/.*"steps_done":\([0-9]*\).*/\1/')
check "--until-settled ran fewer steps than asked ($steps_done)" test "$steps_done" -lt 5000
check "summary records settled_step" grep -q '"settled_step":' "$tmp/i/summary.json"
catena run -q -o "$tmp/never" --until-settled 0 "$tmp/small.json"
expect_status 2 "--until-settled 0 is bad input"
expect_err "catena: --until-settled: must be greater than 0 (got 0)" \
    "--until-settled is checked as time.until_settled.speed, and the message names the option"

# --- --max-points: the point limit, for run and validate, checked before the points exist
chain=$top_srcdir/scenarios/hanging-chain.json # 41 points
catena validate --max-points 40 "$chain"
expect_status 2 "validate --max-points below the point count exits 2"
expect_err "bodies[0].segments: too many points: the scenario would need 41 points, about " \
    "--max-points: the message gives the point count"
expect_err "(the limit is 40 points; --max-points changes it)" "--max-points: the message gives the limit"
catena validate --max-points 41 "$chain"
expect_status 0 "validate --max-points at the point count exits 0"
catena run -q --max-points 40 -o "$tmp/limited" "$chain"
expect_status 2 "run --max-points below the point count exits 2"
check "run --max-points below the point count writes nothing" test ! -e "$tmp/limited"
for bad in 0 -5 1e3 many; do
    catena validate --max-points "$bad" "$chain"
    expect_status 2 "--max-points $bad exits 2"
    expect_err "catena: --max-points: expected a whole number of points >= 1, got '$bad'" \
        "--max-points $bad is explained"
done

finish
