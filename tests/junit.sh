#!/bin/sh
# `catena compare --junit FILE`: the comparison as one JUnit test case, passed, failed (with
# the report) or in error (files that cannot be compared), valid against
# tests/data/junit.xsd whatever bytes the file names hold; a report that cannot be written
# fails the command.
. "$top_srcdir/tests/lib.sh"

small_rope "$tmp/rope.json" rope 20 '"trajectory": ["csv"], "every": 5'
catena run "$tmp/rope.json" -q -o "$tmp/a"
catena run "$tmp/rope.json" -q -o "$tmp/b"
catena run "$tmp/rope.json" -q -o "$tmp/c" --set world.gravity='[0, -9.7]'

catena compare "$tmp/a" "$tmp/b" --junit "$tmp/pass.xml"
expect_status 0 "equal runs: exit 0"
check "the report is valid" junit_valid "$tmp/pass.xml"
check "one test case, passed" grep -q \
    "<testcase name=\"$tmp/a against $tmp/b\" classname=\"compare\" time=\"[0-9]*\.[0-9][0-9][0-9]\"/>" \
    "$tmp/pass.xml"
check "the suite counts it" grep -q 'tests="1" failures="0" errors="0"' "$tmp/pass.xml"

catena compare "$tmp/c" "$tmp/a" --junit "$tmp/fail.xml"
expect_status 1 "different runs: exit 1"
check "the report is valid" junit_valid "$tmp/fail.xml"
check "a failure typed by the part that differs, with compare's message" grep -q \
    "<failure type=\"positions\" message=\"$tmp/c/trajectory.csv and $tmp/a/trajectory.csv differ: " \
    "$tmp/fail.xml"
check "the failure holds the report" grep -q '^tolerance: |A-B| &lt;= 1e-09 + 1e-09\*|B|' \
    "$tmp/fail.xml"
check "the suite counts it" grep -q 'tests="1" failures="1" errors="0"' "$tmp/fail.xml"

catena compare "$tmp/missing" "$tmp/a" --junit "$tmp/error.xml"
expect_status 2 "a missing file: exit 2"
check "the report is valid" junit_valid "$tmp/error.xml"
check "an error with the reason" grep -q \
    "<error type=\"input\" message=\"$tmp/missing: cannot open: No such file or directory\">" \
    "$tmp/error.xml"

# File names of any bytes: control characters, markup, bytes that are not UTF-8.
odd=$(printf 'odd\001\033[31m&<"\047>\377\302\tend')
cp -r "$tmp/a" "$tmp/$odd"
catena compare "$tmp/$odd" "$tmp/c" --junit "$tmp/odd.xml"
expect_status 1 "an odd name: the comparison still runs"
check "the report is still valid" junit_valid "$tmp/odd.xml"
check "what XML cannot hold is written as \\xNN, the tab as a reference" grep -q \
    'odd\\x01\\x1B\[31m&amp;&lt;&quot;&apos;&gt;\\xFF\\xC2&#9;end' "$tmp/odd.xml"

# The report is written whole or not at all, and a failure to write it is the command's.
catena compare "$tmp/a" "$tmp/b" --junit "$tmp/nowhere/report.xml"
expect_status 1 "a report that cannot be written: exit 1"
expect_err "catena: $tmp/nowhere/report.xml: cannot create: No such file or directory" \
    "the report's file is named"
expect_eq "$(find "$tmp" -name '.*.tmp.*' | wc -l | tr -d ' ')" 0 "no temporary file is left"

finish
