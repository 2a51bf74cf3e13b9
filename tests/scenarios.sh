#!/bin/sh
# Every scenario shipped in scenarios/ (subdirectories included) validates and runs 10
# steps cleanly, also with the direct projection (solver.global), so an example that stops
# loading or diverges is caught. The sweep files in scenarios/sweeps/ expand, and every run of
# each loads (catena sweep --dry-run).
. "$top_srcdir/tests/lib.sh"

find "$top_srcdir/scenarios/sweeps" -name '*.json' 2>/dev/null | sort >"$tmp/sweeps"
while IFS= read -r file; do
    catena sweep --dry-run -o "$tmp/sweep" "$file"
    expect_status 0 "${file#"$top_srcdir/scenarios/"}: every run of the sweep loads"
done <"$tmp/sweeps"

find "$top_srcdir/scenarios" -path "$top_srcdir/scenarios/sweeps" -prune -o -name '*.json' -print |
    sort >"$tmp/list"
n=0
while IFS= read -r file; do
    n=$((n + 1))
    name=${file#"$top_srcdir/scenarios/"}
    catena validate "$file"
    expect_status 0 "$name validates"
    catena run "$file" --steps 10 -q -o "$tmp/run-$n"
    expect_status 0 "$name runs 10 steps"
    check "$name writes summary.json" test -f "$tmp/run-$n/summary.json"
    catena run "$file" --steps 10 -q -o "$tmp/global-$n" --set solver.global=true
    expect_status 0 "$name runs 10 steps with solver.global"
done <"$tmp/list"
check "scenarios/ holds scenarios" test "$n" -gt 0

# A cut and a drag change the direct projection's bodies mid-run: both run to the end.
for name in rope-cut ragdoll-platforms; do
    catena run "$top_srcdir/scenarios/$name.json" -q -o "$tmp/global-$name" \
        --set solver.global=true
    expect_status 0 "$name.json runs to the end with solver.global"
done

finish
