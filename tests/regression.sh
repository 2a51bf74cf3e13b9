#!/bin/sh
# Golden regression: every scenarios/regression/NAME.json runs and its trajectory is compared
# with tests/golden/NAME.csv by `catena compare`: bit-identical values (atol 0, rtol 0) on
# the platform named in tests/golden/PLATFORM, where the golden files were made; elsewhere
# within the options in tests/golden/NAME.tolerance, whose comments give the reason.
# scripts/update-golden regenerates the golden files after an intended change.
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

finish
