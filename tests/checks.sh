#!/bin/sh
# A scenario's checks from the command line: a failed check is a line on stderr naming it,
# the run's files are all written and summary.json has the outcome, exit 1; the example of
# catena-scenario(5) holds on the chain it describes; a check due after the end of a run made
# shorter is undecided.
. "$top_srcdir/tests/lib.sh"

small_rope "$tmp/rope.json" rope 50 '"trajectory": ["csv"], "every": 10'
checks='"checks": [{"type": "max_stretch", "name": "taut", "limit": 1.0000001}, {"type": "no_break"}]'
sed "s/\"output\"/$checks, \"output\"/" "$tmp/rope.json" >"$tmp/taut.json"

catena run "$tmp/taut.json" -q -o "$tmp/taut"
expect_status 1 "a failed check: exit 1"
expect_eq "$(sed -n 1p "$tmp/err" | sed 's/failed: stretch .*/failed: stretch/')" \
    "catena: $tmp/taut.json: check \"taut\" failed: stretch" "the first line names the check"
expect_eq "$(sed -n 2p "$tmp/err")" "catena: $tmp/taut.json: 1 of 2 checks failed: \"taut\"" \
    "the last line counts the failed checks"
expect_eq "$(lines "$tmp/err")" 2 "nothing else is said"
check "the run's files are written" test -f "$tmp/taut/trajectory.csv" -a -f "$tmp/taut/events.csv"
check "summary.json: the run itself is ok" json_has "$tmp/taut/summary.json" status '"ok"'
check "summary.json: one check failed" json_has "$tmp/taut/summary.json" failed 1
check "summary.json: one passed" json_has "$tmp/taut/summary.json" passed 1
check "summary.json: the failed one is named" json_has "$tmp/taut/summary.json" name '"taut"'

catena validate "$tmp/taut.json"
expect_status 0 "validate accepts a scenario with checks"
expect_out "checks      2 (taut: max_stretch, no_break)" "validate lists the checks"

# A run made shorter than a check assumes leaves it undecided: not a failure.
catena run "$tmp/rope.json" -q -o "$tmp/short" --steps 5 \
    --set 'checks=[{"type": "settled", "by": 0.2, "speed": 1}]'
expect_status 0 "a check due after the end of a shortened run: exit 0"
check "summary.json: it is undecided" json_has "$tmp/short/summary.json" undecided 1
check "summary.json: and says why" grep -q \
    '"message":.*"not judged: the run ended at step 5 (t = 0.05 s), before the check.s step 20 (t = 0.2 s)"' \
    "$tmp/short/summary.json"

# The example of catena-scenario(5), CHECKS, on the chain it describes.
sed -n '/^"checks": \[$/,/^\]$/p' "$top_srcdir/man/catena-scenario.5" | sed 's/\\-/-/g' \
    >"$tmp/example"
check "the manual's example is found" grep -q '"middle hangs"' "$tmp/example"
{
    sed '$d' "$top_srcdir/tests/regression/hanging-chain.json" | sed '$s/$/,/'
    cat "$tmp/example"
    echo "}"
} >"$tmp/chain.json"
catena run "$tmp/chain.json" -q -o "$tmp/chain"
expect_status 0 "the manual's example holds on the hanging chain"
check "all four checks passed" json_has "$tmp/chain/summary.json" passed 4

finish
