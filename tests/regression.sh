#!/bin/sh
# Golden regression: every scenarios/regression/NAME.json runs and its trajectory is compared
# with tests/golden/NAME.csv by `catena compare`: bit-identical values (atol 0, rtol 0) on
# the platform named in tests/golden/PLATFORM, where the golden files were made; elsewhere
# within the options in tests/golden/NAME.tolerance, whose comments give the reason.
# scripts/update-golden regenerates the golden files after an intended change; it is tested
# at the end on a copy of the tree (reports, all-or-nothing, tolerance files).
. "$top_srcdir/tests/lib.sh"

golden=$top_srcdir/tests/golden
scenarios=$top_srcdir/scenarios/regression
here=$(uname -sm)
made_on=$(cat "$golden/PLATFORM" 2>/dev/null)
check "tests/golden/PLATFORM names the platform the golden files come from" test -n "$made_on"
if [ "$here" = "$made_on" ]; then
    echo "# $here: the golden files' platform, so values must be bit-identical"
else
    echo "# $here, not $made_on: values are compared within each NAME.tolerance"
fi

# The options a NAME.tolerance file holds: its lines that are not comments.
tolerance() {
    grep -v '^#' "$golden/$1.tolerance" | tr '\n' ' ' | sed 's/ *$//'
}

n=0
for json in "$scenarios"/*.json; do
    [ -e "$json" ] || continue
    name=${json##*/}
    name=${name%.json}
    n=$((n + 1))
    if ! check "$name: has a golden file" test -f "$golden/$name.csv" ||
        ! check "$name: has a tolerance file" test -f "$golden/$name.tolerance"; then
        continue
    fi
    catena run "$json" --format csv -q -o "$tmp/$name"
    expect_status 0 "$name: runs"
    if [ "$here" = "$made_on" ]; then
        catena compare "$tmp/$name/trajectory.csv" "$golden/$name.csv" --atol 0 --rtol 0
        expect_status 0 "$name: bit-identical to tests/golden/$name.csv"
    fi
    # shellcheck disable=SC2046 # the file holds options, one word each
    catena compare "$tmp/$name/trajectory.csv" "$golden/$name.csv" $(tolerance "$name")
    expect_status 0 "$name: within tests/golden/$name.tolerance ($(tolerance "$name"))"
    if [ "$status" -ne 0 ]; then
        sed 's/^/    /' "$tmp/out"
    fi
done
check "scenarios/regression holds scenarios" test "$n" -ge 3

# Every golden file belongs to a scenario: one whose scenario is gone tests nothing.
for f in "$golden"/*.csv; do
    name=${f##*/}
    check "tests/golden/$name has its scenario" test -f "$scenarios/${name%.csv}.json"
done

# What each scenario is there for is still there.
check "breaking-link: one link breaks" json_has "$tmp/breaking-link/summary.json" live_links 10
check "rope-3d: the trajectory is 3D" grep -qx 'step,time,point,x,y,z' "$tmp/rope-3d/trajectory.csv"

# The comparison can fail: one coordinate moved by a few ulps (a relative 1e-15) is a
# difference at atol 0 and rtol 0 (exit 1, with the place), though far within the
# tolerance file's.
awk -F, 'NR == 11 { $4 = sprintf("%.17g", $4 * (1 + 1e-15)) } { print }' OFS=, \
    "$golden/pendulum.csv" >"$tmp/perturbed.csv"
catena compare "$tmp/perturbed.csv" "$golden/pendulum.csv" --atol 0 --rtol 0
expect_status 1 "one coordinate a few ulps off differs at atol 0"
expect_err "1 of 164 values outside tolerance, first at step 80 (t = 0.4 s), point 1, x" \
    "the difference is that value, found where it is"
# shellcheck disable=SC2046
catena compare "$tmp/perturbed.csv" "$golden/pendulum.csv" $(tolerance pendulum)
expect_status 0 "a few ulps are within the tolerance file's"

# --- scripts/update-golden, on a copy of the tree's golden files

catena_abs=$CATENA
run_update() {
    status=0
    CATENA=$catena_abs "$tmp/tree/scripts/update-golden" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
}
mkdir -p "$tmp/tree/scripts" "$tmp/tree/tests" "$tmp/tree/scenarios"
cp "$top_srcdir/scripts/update-golden" "$tmp/tree/scripts/"
cp -r "$golden" "$tmp/tree/tests/golden"
cp -r "$scenarios" "$tmp/tree/scenarios/regression"
chmod -R u+w "$tmp/tree"

run_update -n
expect_status 0 "update-golden -n: nothing would change"
expect_out "4 unchanged, 0 changed, 0 new" "update-golden -n finds every golden file current"

# A golden file a few ulps off: reported as changed, within its tolerance file.
cp "$tmp/perturbed.csv" "$tmp/tree/tests/golden/pendulum.csv"
run_update -n
expect_status 1 "update-golden -n with a golden file off exits 1"
expect_out "pendulum: CHANGED" "the changed golden file is named"
expect_out "max |A-B|:" "the change is measured by catena compare"
expect_out "a rounding-sized change" "a change within the tolerance file is called rounding"
check "update-golden -n changes nothing" cmp -s "$tmp/perturbed.csv" "$tmp/tree/tests/golden/pendulum.csv"

# A scenario that no longer runs: no golden file is touched, not even the ones before it.
cp "$tmp/tree/scenarios/regression/rope-3d.json" "$tmp/rope-3d.json"
sed 's/"steps": 300/"steps": -1/' "$tmp/rope-3d.json" >"$tmp/tree/scenarios/regression/rope-3d.json"
run_update
expect_status 1 "update-golden with a scenario that fails exits 1"
expect_err "no golden file was changed" "update-golden says nothing was changed"
check "a failed update leaves the golden files alone" \
    cmp -s "$tmp/perturbed.csv" "$tmp/tree/tests/golden/pendulum.csv"
cp "$tmp/rope-3d.json" "$tmp/tree/scenarios/regression/rope-3d.json"

# The physics changed: outside the tolerance file, then regenerated.
sed 's/-9.81/-9.80665/' "$top_srcdir/scenarios/regression/pendulum.json" \
    >"$tmp/tree/scenarios/regression/pendulum.json"
sed 's/"steps": 400/"steps": 380/' "$top_srcdir/scenarios/regression/hanging-chain.json" \
    >"$tmp/tree/scenarios/regression/hanging-chain.json"
run_update
expect_status 0 "update-golden regenerates"
expect_out "pendulum: OUTSIDE" "a change beyond the tolerance file is called a change in the physics"
expect_out "hanging-chain: OUTSIDE" "a run of fewer steps is a change"
expect_out "extent: A ends at step 360, B goes on to step 400" \
    "where the shorter run stops is named (its last frame: every 40 steps)"
expect_out "2 unchanged, 2 changed, 0 new" "update-golden counts what changed"
catena run "$tmp/tree/scenarios/regression/pendulum.json" --format csv -q -o "$tmp/new-pendulum"
check "the regenerated golden file is the new trajectory" \
    cmp -s "$tmp/new-pendulum/trajectory.csv" "$tmp/tree/tests/golden/pendulum.csv"
check "no temporary file is left" test -z "$(find "$tmp/tree/tests/golden" -name '.*')"
run_update -n
expect_status 0 "after regenerating, update-golden -n finds nothing to change"

# A scenario without its tolerance file is refused before anything runs.
cp "$tmp/tree/scenarios/regression/pendulum.json" "$tmp/tree/scenarios/regression/new.json"
run_update
expect_status 2 "a scenario without NAME.tolerance: exit 2"
expect_err "tests/golden/new.tolerance: missing; write it first (see tests/golden/README)" \
    "the missing tolerance file is named"

finish
