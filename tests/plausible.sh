#!/bin/sh
# Warnings from the command line: a run that ends plainly wrong says so on stderr and in
# summary.json's "warnings" (a rigid chain stretched 50 % under a heavy load at one
# iteration; a point that starts buried in the ground and ends lifted out of it, energy from
# nowhere) with exit status 0; a well-run chain has none; a verlet damping run under pbd by
# --set is warned about, and solver.damping_rate, the same meaning under every method, is
# not; damping and damping_rate together are refused.
. "$top_srcdir/tests/lib.sh"

cd "$tmp" || exit 99

# warning_codes FILE: the codes of summary.json's warnings, space-separated.
warning_codes() {
    tr -d ' \t\n' <"$1" | grep -o '"code":"[^"]*"' | sed 's/"code":"\([^"]*\)"/\1/' |
        tr '\n' ' '
}

# A 20-link chain of 0.2 kg holding 20 kg, one iteration a step: it cannot converge.
cat >heavy.json <<'JSON'
{
  "catena": 1,
  "name": "heavy",
  "time": { "dt": 0.01, "steps": 100 },
  "solver": { "method": "verlet", "iterations": 1, "damping": 0.9 },
  "bodies": [
    { "type": "rope", "name": "rope", "from": [0, 0], "to": [0, -2], "segments": 20,
      "mass": 0.2, "pins": ["first"] }
  ],
  "points": [ { "name": "load", "p": [0, -2.1], "mass": 20 } ],
  "links": [ { "a": "rope.last", "b": "load" } ]
}
JSON
catena run -q heavy.json -o heavy
expect_status 0 "a stretched run still exits 0"
expect_err "catena: heavy.json: warning: link 0 (rope.0 to rope.1) ends 50 % longer than its rest length, and 20 of 21 rigid links more than 25 %" \
    "stderr names the worst link, its stretch and how many links are beyond 25 %"
expect_eq "$(warning_codes heavy/summary.json)" "max-stretch " "summary.json lists max-stretch"
catena run -q heavy.json -o heavy20 --set solver.iterations=200
check "200 iterations: no warning" test ! -s err
expect_eq "$(warning_codes heavy20/summary.json)" "" "200 iterations: summary.json lists none"

# A point 0.5 m under the ground plane: pushed out, it gains m g 0.5 m from nowhere.
cat >buried.json <<'JSON'
{
  "catena": 1,
  "name": "buried",
  "time": { "dt": 0.01, "steps": 100 },
  "points": [ { "p": [0, -0.5], "mass": 1, "radius": 0.05 } ],
  "obstacles": [ { "type": "plane", "point": [0, 0], "normal": [0, 1] } ]
}
JSON
catena run -q buried.json -o buried
expect_status 0 "energy from nowhere still exits 0"
expect_err "catena: buried.json: warning: kinetic plus potential energy grew from" \
    "stderr says the energy grew"
expect_eq "$(warning_codes buried/summary.json)" "energy-grew " "summary.json lists energy-grew"

catena run -q "$top_srcdir/scenarios/hanging-chain.json" -o chain --steps 120
check "a well-run chain: nothing on stderr" test ! -s err
check "a well-run chain: an empty warnings list" json_has chain/summary.json warnings '\[\]'

# --- one meaning of damping

catena run -q "$top_srcdir/scenarios/hanging-chain.json" -o pbd --steps 10 \
    --set solver.method=pbd
expect_status 0 "a damping meant for verlet, run under pbd: exit 0"
expect_err "warning: solver.damping 0.99 was written for verlet, which reads it as a factor per substep (1.206 /s here), but pbd reads it as the fraction kept per second (0.01005 /s): replace it by solver.damping_rate 1.20604" \
    "the warning gives both meanings and the rate that keeps the scenario's"
expect_eq "$(warning_codes pbd/summary.json)" "damping-method " "summary.json lists damping-method"

catena run -q "$top_srcdir/scenarios/hanging-chain.json" -o rate --steps 10 \
    --set solver.method=pbd --set solver.damping=null --set solver.damping_rate=1.20604
check "solver.damping_rate under pbd: no warning" test ! -s err
check "summary.json gives the rate" json_has rate/summary.json damping_rate 1.20604
check "which is damping 0.2994 under pbd (e^-1.20604)" \
    sh -c 'tr -d " \t\n" <rate/summary.json | grep -q "\"damping\":0\.29938"'

catena run -q "$top_srcdir/scenarios/hanging-chain.json" -o both --set solver.damping_rate=1
expect_status 2 "damping and damping_rate together: exit 2"
expect_err "catena: --set solver.damping_rate=1: give either \"damping\" or \"damping_rate\", not both" \
    "the message names the override and both keys"

finish
