#!/bin/sh
# catena's own regression suite, tests/regression/ (see its README), run by `catena regress`:
# every scenario against its golden run, bit-identical (atol 0, rtol 0) on the platform
# named in tests/regression/PLATFORM, where the golden runs were made; elsewhere within
# 1e-9 m, the tolerance the README gives the reasons for. Then what the suite is there for
# is checked in its golden runs, and that the comparison can fail.
. "$top_srcdir/tests/lib.sh"

suite=$top_srcdir/tests/regression
here=$(uname -sm)
made_on=$(cat "$suite/PLATFORM" 2>/dev/null)
check "tests/regression/PLATFORM names the platform the golden runs come from" test -n "$made_on"
if [ "$here" = "$made_on" ]; then
    echo "# $here: the golden runs' platform, so values must be bit-identical"
    tolerance="--atol 0 --rtol 0"
else
    echo "# $here, not $made_on: values are compared within 1e-9 m (tests/regression/README)"
    tolerance="--atol 1e-9 --rtol 0"
fi

# shellcheck disable=SC2086 # the options are words
catena regress "$suite" $tolerance --junit "$tmp/junit.xml"
expect_status 0 "tests/regression: every scenario matches its golden run ($tolerance)"
if [ "$status" -ne 0 ]; then
    sed 's/^/    /' "$tmp/out"
fi
n=$(grep -c '^PASS: ' "$tmp/out")
check "tests/regression holds scenarios ($n passed)" test "$n" -ge 4
check "the JUnit report is written" test -s "$tmp/junit.xml"

# What each scenario is there for is still in its golden run.
golden=$suite/golden
check "breaking-link: one link breaks" json_has "$golden/breaking-link/summary.json" live_links 10
check "breaking-link: the break is an event" grep -q '^37,0.37,break,10,' \
    "$golden/breaking-link/events.csv"
check "rope-3d: the trajectory is 3D" grep -qx 'step,time,point,x,y,z' \
    "$golden/rope-3d/trajectory.csv"
for f in "$golden"/*/summary.json; do
    name=${f%/summary.json}
    check "${name##*/}: the golden run ended well" json_has "$f" status '"ok"'
done

# The comparison can fail: in a copy of the suite (the golden runs' platform only: it
# compares at atol 0), one coordinate of the pendulum's golden moved by a few ulps (a
# relative 1e-15) is a difference at atol 0 and rtol 0 (exit 1, with the place), though far
# within 1e-9 m.
if [ "$here" != "$made_on" ]; then
    finish
fi
cp -r "$suite" "$tmp/suite"
chmod -R u+w "$tmp/suite"
awk -F, 'NR == 11 { $4 = sprintf("%.17g", $4 * (1 + 1e-15)) } { print }' OFS=, \
    "$golden/pendulum/trajectory.csv" >"$tmp/suite/golden/pendulum/trajectory.csv"
# the golden's manifest made to list the edited file, as if it had been run so
relist "$tmp/suite/golden/pendulum"
catena regress "$tmp/suite" --atol 0 --rtol 0
expect_status 1 "one coordinate a few ulps off differs at atol 0"
expect_out "FAIL: pendulum: positions: 1 of 164 values outside tolerance, first at step 80 (t = 0.4 s), point 1, x" \
    "the difference is that value, found where it is"
check "the other scenarios still pass" test "$(grep -c '^PASS: ' "$tmp/out")" -eq $((n - 1))
catena regress "$tmp/suite" --atol 1e-9 --rtol 0
expect_status 0 "a few ulps are within 1e-9 m"

# --update calls it a rounding-sized change and puts the golden back as it was.
catena regress "$tmp/suite" --update --atol 1e-9 --rtol 0
expect_status 0 "--update regenerates"
expect_out "changed: pendulum: positions: 1 of 164 values outside tolerance" "--update names the change"
expect_out "within the tolerance (atol 1e-09, rtol 0)" "--update calls it rounding-sized"
expect_out "regress: $n scenarios: 0 new, 1 changed, $((n - 1)) unchanged" "--update counts"
check "the golden trajectory is the one made here again" \
    cmp -s "$tmp/suite/golden/pendulum/trajectory.csv" "$golden/pendulum/trajectory.csv"

finish
