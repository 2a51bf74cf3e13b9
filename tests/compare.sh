#!/bin/sh
# catena compare on the command line: exit 0 within tolerance, 1 outside (the report says
# where), 2 when the files cannot be compared or the usage is wrong, each with its message;
# the options --atol, --rtol, --steps, --points and --json; files of any format and run
# directories. The comparison itself is tested in tests/check_compare.c.
. "$top_srcdir/tests/lib.sh"

data=$top_srcdir/tests/data/traj
# small.csv: 3 points at steps 0, 10, 20; point 1 sags by 1/8 per frame (tests/data/traj/README).
cp "$data/small.csv" "$data/small.json" "$data/small.npy" "$tmp/"
cd "$tmp" || exit 99

# moved.csv: point 1's y at step 10 moved by 1e-6 m (-0.25 -> -0.250001).
sed 's/^10,0.1,1,0.5,-0.25$/10,0.1,1,0.5,-0.250001/' small.csv >moved.csv
check "moved.csv differs from small.csv in one line" test "$(diff small.csv moved.csv | grep -c '^>')" = 1

# --- exit 0: within tolerance

catena compare small.csv small.json
expect_status 0 "the same trajectory in CSV and JSON: exit 0"
expect_out "A: small.csv" "the report names A"
expect_out "B: small.json (reference)" "the report names B as the reference"
expect_out "compared: 3 frames (steps 0 to 20, matched by step), points 0 to 2, 18 values" \
    "the report says what was compared"
expect_out "max |A-B|: 0" "the report gives the largest deviation"
expect_out "tolerance: |A-B| <= 1e-09 + 1e-09*|B| (numpy.isclose)" "the default tolerances are 1e-9"
expect_out "within tolerance: all 18 values" "the report says all values are within"
check "nothing on stderr when within tolerance" test ! -s "$tmp/err"

catena compare small.npy small.csv
expect_status 0 "NPY against CSV: exit 0"
expect_out "matched by index" "NPY without its frames file stores no steps: matched by frame index"

catena compare moved.csv small.csv --atol 2e-6
expect_status 0 "a 1e-6 m difference within --atol 2e-6: exit 0"
catena compare moved.csv small.csv --atol 0 --rtol 1e-5
expect_status 0 "a 1e-6 m difference on 0.25 m within --rtol 1e-5: exit 0"
catena compare moved.csv small.csv --steps 20
expect_status 0 "--steps 20 leaves out the step that differs"
expect_out "compared: 1 frames (steps 20 to 20" "--steps 20 compares one frame"
catena compare moved.csv small.csv --steps ..0
expect_status 0 "--steps ..0 leaves it out too"
catena compare moved.csv small.csv --points 2..
expect_status 0 "--points 2.. leaves out the point that differs"
expect_out "points 2 to 2, 6 values" "--points 2.. compares one point"
check "no warning for the range syntax" test ! -s "$tmp/err"
catena compare moved.csv small.csv --points 2:
expect_status 0 "--points 2: (deprecated) still reads"
expect_err "catena: --points: '2:': the colon is deprecated, write '2..'" "the colon draws a warning"

# --- exit 1: outside tolerance

catena compare moved.csv small.csv
expect_status 1 "a 1e-6 m difference at the default tolerance: exit 1"
expect_err "catena: moved.csv and small.csv differ: 1 of 18 values outside tolerance, first at step 10 (t = 0.1 s), point 1, y" \
    "stderr says how many values differ and where the first is"
expect_out "max |A-B|: 1e-06 at step 10 (t = 0.1 s), point 1, y: A -0.250001, B -0.25" \
    "the report gives the largest deviation, its place and both values"
expect_out "outside tolerance: 1 of 18 values, first at step 10 (t = 0.1 s), point 1, y" \
    "the report gives the first value outside"
catena compare moved.csv small.csv --steps 10..20 --points 1
expect_status 1 "--steps 10..20 --points 1 still holds the difference"

catena compare moved.csv small.csv --json
expect_status 1 "--json: exit 1 all the same"
check "--json: within_tolerance false" json_has "$tmp/out" within_tolerance false
check "--json: outside 1" json_has "$tmp/out" outside 1
check "--json: values 18" json_has "$tmp/out" values 18
check "--json: the first value outside is point 1" \
    sh -c "tr -d ' \t\n' <'$tmp/out' | grep -q '\"first_outside\":{\"frame\":1,\"step\":10,\"time\":0.1,\"point\":1,\"component\":\"y\"'"
catena compare small.csv small.json --json
expect_status 0 "--json within tolerance: exit 0"
check "--json: within_tolerance true" json_has "$tmp/out" within_tolerance true
check "--json: first_outside null" json_has "$tmp/out" first_outside null

# --- exit 2: cannot be compared

awk -F, '$3 != 2' small.csv >two-points.csv
catena compare two-points.csv small.csv
expect_status 2 "different point counts: exit 2"
expect_err "catena: cannot compare: two-points.csv has 2 points, small.csv has 3" \
    "different point counts are named"
check "nothing on stdout when the files cannot be compared" test ! -s "$tmp/out"

grep -v '^20,' small.csv >short.csv
catena compare short.csv small.csv
expect_status 1 "a trajectory that stops a recording interval early differs: exit 1"
expect_err "catena: short.csv and small.csv differ: short.csv ends at step 10, small.csv goes on to step 20" \
    "the missing end is named"
expect_out "extent: A ends at step 10, B goes on to step 20" "the report says so"
expect_out "compared: 2 frames (steps 0 to 10, matched by step; 1 of B's at steps A lacks)" \
    "the common steps are compared"
catena compare short.csv small.csv --steps ..10
expect_status 0 "--steps ..10 lines the two lengths up: exit 0"

grep -v '^10,' small.csv >gap.csv
catena compare gap.csv small.csv
expect_status 0 "a frame missing inside (another recording interval): exit 0"
expect_out "compared: 2 frames (steps 0 to 20, matched by step; 1 of B's at steps A lacks)" \
    "only the common steps are compared, and the report says how many"
grep -v '^0,\|^20,' small.csv >middle.csv
awk -F, '$1 != 10' small.csv | sed 's/^20,0.2,/30,0.3,/' >apart.csv
catena compare middle.csv apart.csv
expect_status 2 "no step in common: exit 2"
expect_err "catena: cannot compare: middle.csv and apart.csv have no step in common (1 and 2 frames in the range)" \
    "no step in common is named"

sed 's/^10,0.1,/10,0.15,/' small.csv >late.csv
catena compare late.csv small.csv
expect_status 2 "a step at another time: exit 2"
expect_err "catena: cannot compare: step 10 is at time 0.15 in late.csv but 0.1 in small.csv" \
    "the time that differs is named"

catena compare nope.csv small.csv
expect_status 2 "a missing file: exit 2"
expect_err "catena: nope.csv: cannot open: No such file or directory" "the missing file is named"

printf 'hello\n' >text.txt
catena compare small.csv text.txt
expect_status 2 "a file that is no trajectory: exit 2"
expect_err "catena: text.txt: " "the file that is no trajectory is named"

catena compare small.csv small.csv --points 7
expect_status 2 "--points beyond the last point: exit 2"
expect_err "catena: cannot compare: point 7 does not exist (the trajectories have 3 points, 0 to 2)" \
    "the missing point is named"

catena compare small.csv small.csv --steps 30..
expect_status 2 "--steps beyond the last step: exit 2"
expect_err "catena: cannot compare: neither small.csv nor small.csv has a frame at steps 30 or later" \
    "the empty step range is named"

# --- exit 2: usage

catena compare small.csv
expect_status 2 "one trajectory: exit 2"
expect_err "catena: compare: expected two trajectories A B, got 1" "a missing B is reported"
expect_err "Try 'catena compare --help'" "a usage error gives a hint"
catena compare a.csv b.csv c.csv
expect_status 2 "three trajectories: exit 2"
expect_err "catena: compare: unexpected argument 'c.csv'" "the extra argument is named"
catena compare --atol -1 small.csv small.csv
expect_status 2 "a negative --atol: exit 2"
expect_err "catena: --atol: expected a finite number >= 0, got '-1'" "the bad --atol is named"
catena compare --rtol 1e-3x small.csv small.csv
expect_status 2 "a --rtol that is no number: exit 2"
expect_err "catena: --rtol: expected a finite number >= 0, got '1e-3x'" "the bad --rtol is named"
catena compare --rtol inf small.csv small.csv
expect_status 2 "an infinite --rtol: exit 2"
catena compare --steps 5..2 small.csv small.csv
expect_status 2 "a reversed --steps range: exit 2"
expect_err "catena: --steps: '5..2': 5 comes after 2" "the reversed range is named"
catena compare --points x small.csv small.csv
expect_status 2 "a --points that is no range: exit 2"
expect_err "catena: --points: expected N, FIRST..LAST, FIRST.. or ..LAST (integers >= 0, both ends included), got 'x'" \
    "the valid forms of a range are listed"
catena compare --bogus small.csv small.csv
expect_status 2 "an unknown option: exit 2"
expect_err "catena: unrecognized option '--bogus'" "the unknown option is named"
catena compare --help
expect_status 0 "compare --help: exit 0"
expect_out "Usage: catena compare [OPTION]... A B" "compare --help shows compare's options"

# --- run directories: the trajectory inside is found

small_rope rope.json rope 30 '"trajectory": ["npy"], "every": 10'
catena run rope.json -q -o run-a
catena run rope.json -q -o run-b --format csv
catena run rope.json -q -o run-c --set solver.iterations=1
catena compare run-a run-b
expect_status 0 "two run directories of the same scenario (NPY and CSV): exit 0"
expect_out "A: run-a/trajectory.npy" "a run directory is read through its trajectory file"
catena compare run-c run-b
expect_status 1 "a run with fewer iterations differs: exit 1"

# --- compare by step: the same run recorded every 5 and every 10 steps, in every format,
# compares equal on its common steps; a different run differs. lamp-chain-breaks has a
# break (step 122) and an impulse (step 120), so events and topology are compared too.
lamp=$top_srcdir/scenarios/lamp-chain-breaks.json
catena run "$lamp" -q -o e5 --steps 200 --every 5 --format npy
catena run "$lamp" -q -o e10 --steps 200 --every 10 --format csv
catena run "$lamp" -q -o e10j --steps 200 --every 10 --format json
catena run "$lamp" -q -o it5 --steps 200 --every 10 --set solver.iterations=5
check "the every-5 NPY run carries its steps" test -f e5/trajectory-frames.npy
for pair in "e5 e10" "e10 e5" "e5 e10j" "e10j e5" "e10 e10j"; do
    # shellcheck disable=SC2086 # two words
    catena compare $pair
    expect_status 0 "$pair: the same run at other intervals and formats: exit 0"
done
catena compare e5 e10
expect_out "compared: 21 frames (steps 0 to 200, matched by step; 20 of A's at steps B lacks)" \
    "only the 21 common steps are compared, and the report says how many were left out"
expect_out "events: 2 events in each, all match (steps up to 0 apart)" "events are compared"
expect_out "topology: 1 change in each, all match (steps up to 0 apart)" "topology is compared"
expect_out "status: status and steps_done the same" "the status is compared"
expect_out "metrics: all 7 final metrics within |A-B| <= 1e-09 + 1e-09*|B|" \
    "the final metrics are compared"
catena compare e10j e5 --atol 0 --rtol 0 --metric-atol 0 --metric-rtol 0
expect_status 0 "bit for bit on the common steps"
catena compare e5/trajectory.npy e10/trajectory.csv
expect_status 0 "the bare files: exit 0"
expect_out "events: not compared (A is a trajectory file, not a run directory)" \
    "a bare trajectory is compared for its positions only, and the report says so"

catena compare it5 e10
expect_status 1 "a run with 5 iterations instead of 10: exit 1"
expect_err "catena: it5/trajectory.csv and e10/trajectory.csv differ: " "stderr says they differ"
expect_err "; also in events, topology, metrics" "and in which other parts"
expect_out "events: 1 difference, first: break, link 30, point_a 16, point_b 0: A at step 123, B at step 122" \
    "the break a step later is named with both steps"
expect_out "worst point: " "the worst point is summarised"
catena compare it5 e10 --only events,status --step-tol 1 --metric-rtol 0.05
expect_status 0 "--only events,status --step-tol 1 --metric-rtol 0.05: exit 0"
expect_out "positions: not compared (left out)" "--only leaves the positions out"
catena compare it5 e10 --only events --step-tol 1
expect_status 1 "matched within --step-tol 1, the break's stretch still differs"
expect_err "catena: it5 and e10 differ in events: 2 differences, first: stretch of break, link 30, point_a 16, point_b 0 at step 122: A " \
    "the stretch that differs is named"
catena compare it5 e10 --json
expect_status 1 "--json: exit 1"
check "--json: the events part" json_has "$tmp/out" differ 1
check "--json: not within tolerance" json_has "$tmp/out" within_tolerance false

# docs/guide.md's example (its regression section): a run every 5 steps in NPY with 5
# iterations against one every 10 in CSV with 10, the lines it quotes.
catena run "$lamp" -o readme-ref -q --steps 200 --every 10
catena run "$lamp" -o readme-new -q --steps 200 --every 5 --format npy --set solver.iterations=5
catena compare readme-new readme-ref --plot compare.png
expect_status 1 "the guide's example: exit 1"
for line in \
    "compared: 21 frames (steps 0 to 200, matched by step; 20 of A's at steps B lacks), points 0 to 31, 1344 values" \
    "worst point: 8, 0.969689 m from B at step 190, RMS 0.410936 m over the frames, outside tolerance in 20 of 21 frames" \
    "events: 1 difference, first: break, link 30, point_a 16, point_b 0: A at step 123, B at step 122" \
    "topology: 1 difference, first: dead, index 30: A at step 123, B at step 122" \
    "status: status and steps_done the same" \
    "metrics: 6 differences, first: max_stretch: A 1.00003"; do # (6 digits: another libm)
    expect_out "$line" "the guide's example prints '${line%%:*}: ...' as quoted"
done
check "the guide's example draws compare.png" test -s compare.png

# --- compare --plot: |A-B| over time and both shapes at the worst frame (the picture itself
# is checked pixel by pixel in check_compare_run)
catena compare it5 e10 --plot it5.png
expect_status 1 "--plot: the exit status is the comparison's"
check "--plot writes a PNG" sh -c "head -c 8 it5.png | od -An -c | grep -q 'P   N   G'"
catena compare e5 e10 --plot same.png
expect_status 0 "--plot of equal runs: exit 0"
check "--plot of equal runs writes a PNG" test -s same.png
catena compare e5 e10 --plot nowhere/x.png
expect_status 1 "--plot into a missing directory: exit 1"
expect_err "catena: nowhere/x.png: cannot create: No such file or directory" "the plot that failed is named"
catena compare e5 e10 --plot x.png --only events
expect_status 2 "--plot without the positions: exit 2"
expect_err "catena: --plot draws the positions: --only must include them" "--plot needs the positions"

catena compare e5 e10 --only positions,stauts
expect_status 2 "an unknown part: exit 2"
expect_err "catena: --only: unknown part 'stauts' (valid: positions, events, topology, status, metrics)" \
    "the unknown part is named"
catena compare e5 e10 --step-tol -1
expect_status 2 "a negative --step-tol: exit 2"
expect_err "catena: --step-tol: expected a whole number of steps >= 0, got '-1'" "the bad --step-tol is named"
catena compare e5 e10 --metric-rtol nan
expect_status 2 "a --metric-rtol that is no number: exit 2"
expect_err "catena: --metric-rtol: expected a finite number >= 0, got 'nan'" "the bad --metric-rtol is named"

finish
