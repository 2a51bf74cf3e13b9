#!/bin/sh
# Warnings for contradictory set-ups (scenario/setup_warnings.c, found when the scenario
# loads): `catena validate` prints them on stderr with exit status 0 (they are not errors),
# `catena run` prints each once and records them in summary.json's "warnings"; no shipped
# scenario has one.
. "$top_srcdir/tests/lib.sh"

# The issue's wheel: a ring with rigid spokes and rigid edges at pressure 0.8.
cat >"$tmp/wheel.json" <<'JSON'
{
  "catena": 1,
  "name": "wheel",
  "time": { "dt": 0.01, "steps": 20 },
  "bodies": [
    { "type": "softbody", "name": "wheel", "center": [0, 1], "shape_radius": 0.5,
      "points": 16, "mass": 1, "pressure": 0.8 }
  ]
}
JSON

cd "$tmp" || exit 99
catena validate wheel.json
expect_status 0 "validate: a warning is not an error"
expect_out "wheel" "validate: the description is printed as usual"
expect_eq "$(lines "$tmp/err")" 1 "validate: one warning line"
expect_err "catena: wheel.json: warning: body \"wheel\": its area is held at 0.8 times" \
    "validate: the warning names the file and the body"

catena validate -q wheel.json
expect_status 0 "validate -q: a warning is not an error"
check "validate -q: no warning (errors only)" test ! -s "$tmp/err"

catena validate --json wheel.json
expect_out '"valid"' "validate --json: the description as usual"
expect_err "warning: body \"wheel\"" "validate --json: the warning on stderr"

catena run wheel.json -o "$tmp/run"
expect_status 0 "run: a warning does not fail the run"
expect_eq "$(grep -c 'warning:' "$tmp/err")" 1 "run: the warning is printed once"
check "summary.json records the warning's code" \
    json_has "$tmp/run/summary.json" code '"pressure-rigid-spokes"'
check "summary.json records the warning's message" \
    grep -qF 'its area is held at 0.8 times' "$tmp/run/summary.json"

small_rope "$tmp/rope.json" rope 5 '"trajectory": ["csv"]'
catena run rope.json -o "$tmp/rope"
check "summary.json of a run without warnings has an empty list" \
    json_has "$tmp/rope/summary.json" warnings '\[\]'

n=0
for f in "$top_srcdir"/scenarios/*.json "$top_srcdir"/scenarios/*/*.json; do
    case $f in */sweeps/*) continue ;; esac
    n=$((n + 1))
    catena validate "$f"
    if grep -q 'warning:' "$tmp/err"; then
        fail "shipped scenario ${f#"$top_srcdir"/} has a warning"
    fi
done
check "the shipped scenarios validate without warnings ($n of them)" test "$n" -gt 10

finish
