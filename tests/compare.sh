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
expect_out "matched by index" "NPY, which stores no steps, is matched by frame index"

catena compare moved.csv small.csv --atol 2e-6
expect_status 0 "a 1e-6 m difference within --atol 2e-6: exit 0"
catena compare moved.csv small.csv --atol 0 --rtol 1e-5
expect_status 0 "a 1e-6 m difference on 0.25 m within --rtol 1e-5: exit 0"
catena compare moved.csv small.csv --steps 20
expect_status 0 "--steps 20 leaves out the step that differs"
expect_out "compared: 1 frames (steps 20 to 20" "--steps 20 compares one frame"
catena compare moved.csv small.csv --steps :0
expect_status 0 "--steps :0 leaves it out too"
catena compare moved.csv small.csv --points 2:
expect_status 0 "--points 2: leaves out the point that differs"
expect_out "points 2 to 2, 6 values" "--points 2: compares one point"

# --- exit 1: outside tolerance

catena compare moved.csv small.csv
expect_status 1 "a 1e-6 m difference at the default tolerance: exit 1"
expect_err "catena: moved.csv and small.csv differ: 1 of 18 values outside tolerance, first at step 10 (t = 0.1 s), point 1, y" \
    "stderr says how many values differ and where the first is"
expect_out "max |A-B|: 1e-06 at step 10 (t = 0.1 s), point 1, y: A -0.250001, B -0.25" \
    "the report gives the largest deviation, its place and both values"
expect_out "outside tolerance: 1 of 18 values, first at step 10 (t = 0.1 s), point 1, y" \
    "the report gives the first value outside"
catena compare moved.csv small.csv --steps 10:20 --points 1
expect_status 1 "--steps 10:20 --points 1 still holds the difference"

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
expect_status 2 "a trajectory with fewer steps: exit 2"
expect_err "catena: cannot compare: short.csv ends at step 10 (2 frames), small.csv goes on to step 20" \
    "the missing steps are named"

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

catena compare small.csv small.csv --steps 30:
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
catena compare --steps 5:2 small.csv small.csv
expect_status 2 "a reversed --steps range: exit 2"
expect_err 'catena: --steps "5:2": 5 comes after 2' "the reversed range is named"
catena compare --points x small.csv small.csv
expect_status 2 "a --points that is no range: exit 2"
expect_err 'catena: --points "x": expected N, FIRST:LAST, FIRST: or :LAST (integers >= 0)' \
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

finish
