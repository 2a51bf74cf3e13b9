#!/bin/sh
# Hostile inputs of issue 20 that tests/data/bad cannot hold: directions whose length
# overflows or underflows are honoured exactly as their unit vectors (a plane, a box's
# quaternion, a cloth's u and v, a sine pin's axis), -o that names nothing or the root
# directory, numbers out of a double's range in --set, and 1100 identical cuts.
. "$top_srcdir/tests/lib.sh"
cd "$tmp" || exit 99

# same_run WHAT A.json B.json: both run and give the same trajectory, bit for bit.
same_run() {
    catena run -q -o "run-$2" "$2" && catena run -q -o "run-$3" "$3"
    if [ "$status" -ne 0 ]; then
        fail "$1: a run exits $status"
        return
    fi
    catena compare --atol 0 --rtol 0 "run-$2/trajectory.csv" "run-$3/trajectory.csv"
    expect_status 0 "$1"
}

# --- directions: scaled before they are normalised, never ignored

cat >plane-big.json <<'JSON'
{ "catena": 1, "name": "plane", "time": { "dt": 0.01, "steps": 100 },
  "points": [ { "p": [0, 1], "mass": 1, "radius": 0.1 } ],
  "obstacles": [ { "type": "plane", "point": [0, 0], "normal": [1e200, 1e200] } ] }
JSON
sed 's/\[1e200, 1e200\]/[1, 1]/' plane-big.json >plane-unit.json
sed 's/\[1e200, 1e200\]/[1e-200, 1e-200]/' plane-big.json >plane-tiny.json
same_run "a plane's normal [1e200, 1e200] acts as [1, 1] (the point slides on it)" \
    plane-big.json plane-unit.json
same_run "a plane's normal [1e-200, 1e-200] acts as [1, 1]" plane-tiny.json plane-unit.json
last_y=$(tail -n 1 run-plane-big.json/trajectory.csv | cut -d, -f5)
check "... and the point stays above the plane y = -x (y = $last_y at x > 0)" \
    awk -v y="$last_y" 'BEGIN { exit !(y > -3) }'

cat >box-big.json <<'JSON'
{ "catena": 1, "name": "box", "dimensions": 3, "time": { "dt": 0.01, "steps": 100 },
  "points": [ { "p": [0.3, 2, 0.2], "mass": 1, "radius": 0.1 } ],
  "obstacles": [ { "type": "box", "center": [0, 0, 0], "half": [2, 1, 0.5],
                   "quaternion": [1e308, 1e308, 0, 0] } ] }
JSON
sed 's/\[1e308, 1e308, 0, 0\]/[1, 1, 0, 0]/' box-big.json >box-unit.json
same_run "a box's quaternion [1e308, 1e308, 0, 0] acts as [1, 1, 0, 0]" box-big.json box-unit.json

cat >cloth-big.json <<'JSON'
{ "catena": 1, "name": "cloth", "dimensions": 3, "time": { "dt": 0.01, "steps": 20 },
  "bodies": [ { "type": "cloth", "name": "sheet", "rows": 4, "cols": 5, "spacing": 0.1,
                "u": [1e200, 0, 0], "v": [0, 0, 1e200], "mass": 1, "pins": ["top-row"] } ] }
JSON
sed 's/\[1e200, 0, 0\]/[1, 0, 0]/; s/\[0, 0, 1e200\]/[0, 0, 1]/' cloth-big.json >cloth-unit.json
same_run "a cloth's u [1e200, 0, 0] and v [0, 0, 1e200] act as unit vectors" \
    cloth-big.json cloth-unit.json

cat >sine-big.json <<'JSON'
{ "catena": 1, "name": "sine", "time": { "dt": 0.01, "steps": 50 },
  "points": [ { "p": [0, 0], "mass": 1 }, { "p": [1, 0], "mass": 1 } ],
  "links": [ { "a": 0, "b": 1 } ],
  "pins": [ { "point": 0, "motion": { "type": "sine", "axis": [1e308, 1e308],
                                      "amplitude": 0.5, "frequency": 2 } } ] }
JSON
sed 's/\[1e308, 1e308\]/[1, 1]/' sine-big.json >sine-unit.json
same_run "a sine pin's axis [1e308, 1e308] acts as [1, 1] (the pin moves)" \
    sine-big.json sine-unit.json

# --- -o: never the current directory by accident, never /
# The inputs do not exist: -o is checked first, and a catena that did not check it would
# stop at the input instead of writing into / (the message tells the two apart).

for command in "run no-such.json" "render no-such-run" "sweep no-such-sweep.json"; do
    for dir in "" / //tmp/..; do
        catena $command -o "$dir"
        expect_status 2 "catena $command -o '$dir' is refused"
        expect_err "catena: -o: " "... by -o's check"
    done
done

# --- --set takes numbers as the files do

catena run plane-unit.json -o m --set 'points.0.mass=1e-400'
expect_status 2 "--set mass=1e-400 is refused, not read as 0"
expect_err "--set points.0.mass=1e-400: number 1e-400 is too small for a double" "... saying why"
catena run plane-unit.json -o m --set "time.dt=1$(printf '%0400d' 0)"
expect_status 2 "--set with a 401-digit number is refused"
expect_err "(401 characters) is out of range" "... and the message keeps its reason"

# --- 1100 identical cuts

awk 'BEGIN {
    printf "{ \"catena\": 1, \"name\": \"cuts\", \"time\": { \"dt\": 0.01, \"steps\": 20 },\n"
    printf "  \"bodies\": [ { \"type\": \"rope\", \"name\": \"rope\", \"from\": [0, 0],"
    printf " \"to\": [1, 0], \"segments\": 4, \"mass\": 1, \"pins\": [\"first\"] } ],\n"
    printf "  \"events\": ["
    for (i = 0; i < 1100; i++)
        printf "%s{ \"time\": 0.05, \"cut\": { \"link\": \"rope.2\" } }", i ? ", " : ""
    print "] }"
}' >cuts.json
catena run -q cuts.json -o cuts
expect_status 0 "1100 identical cuts: the run ends ok"
cuts=$(grep -c ',cut,' cuts/events.csv)
check "... the cuts that leave usable pieces are made ($cuts), the rest are not" \
    test "$cuts" -gt 10 -a "$cuts" -lt 100
check "... and nothing in summary.json is NaN" sh -c '! grep -qi nan cuts/summary.json'

# --- memory

catena run /dev/zero -o zero
expect_status 2 "catena run /dev/zero exits 2"
expect_err "catena: /dev/zero: not a regular file" "... without reading it"
catena validate --max-memory 1M plane-unit.json
expect_status 2 "a scenario estimated past --max-memory 1M is refused"
expect_err "more than the limit of 1 MiB (--max-memory" "... saying so"
catena validate --max-memory 1x plane-unit.json
expect_status 2 "--max-memory 1x is a usage error"

cat >chain.json <<'JSON'
{ "catena": 1, "name": "chain", "time": { "dt": 0.01, "steps": 5 },
  "bodies": [ { "type": "rope", "name": "chain", "from": [0, 0], "to": [4, 0],
                "segments": 8, "length": 5, "mass": 1, "pins": ["first", "last"] } ] }
JSON
catena run -q chain.json -o chain
sed 's/"segments":[[:space:]]*8/"segments": 3000000/' chain/scenario.json >s.tmp &&
    mv s.tmp chain/scenario.json
# listed again in the manifest, as one who edits a run directory can: without that the edit
# is refused as a changed directory, before the check this is about
relist chain
check "scenario.json now plans 3 000 001 points" grep -q 3000000 chain/scenario.json
for command in render catenary; do
    catena $command chain
    expect_status 2 "catena $command on the edited run exits 2"
    expect_err "would make 3000001 points or more, but the trajectory of its run holds 9" \
        "... before building the model"
done

finish
