#!/bin/sh
# `catena bench --quick` as a smoke test: every quick case runs and passes its checks (the
# thread team ends on the same bits as one thread, the textbook loop in catena's order ends
# on the same positions, files read back), the table and the JSON list them. Timings are
# printed, never judged here: this machine may be busy with anything.
. "$top_srcdir/tests/lib.sh"

catena bench --quick --json "$tmp/bench.json"
expect_status 0 "bench --quick runs every case and passes its checks"
for name in chain-1k-verlet chain-10k-xpbd cloth-100 ropes-1000x100 write-csv write-json \
    write-npy render-cloth-100 global-chain-1k global-cloth-40 global-hair \
    global-fixed-cloth-40 global-fixed-cloth-100; do
    expect_out "$name" "the table has $name"
    check "the JSON has $name" grep -q "\"name\":[[:space:]]*\"$name\"" "$tmp/bench.json"
done
check "every case is ok in the JSON" sh -c "! grep -q '\"ok\":[[:space:]]*false' '$tmp/bench.json'"
check "the JSON says it was quick" grep -q '"quick":[[:space:]]*true' "$tmp/bench.json"
expect_out "same bits" "the table reports the checks"

catena bench -t 1
expect_status 2 "bench -t 1 is bad usage (a team has two or more threads)"
expect_err "catena: --threads: expected a thread count from 2 to 64, got '1'" \
    "bench -t 1 says what is valid"
catena bench chain-1k-verlet write-npy --quick
expect_status 0 "bench runs the cases named"
expect_out "write-npy" "the named cases run"
check "only the named cases run" sh -c "! grep -q cloth-100 '$tmp/out'"
for name in chain-100k-xpbd cloth-316 global-cloth-100; do
    catena bench --quick "$name"
    expect_status 2 "bench --quick $name is refused (it has no quick size)"
    expect_err "catena: bench: case '$name' has no --quick size (run it without --quick)" \
        "bench --quick $name says why"
done
catena bench no-such-case
expect_status 2 "bench refuses a name that is no case"
expect_err "bench: no case 'no-such-case' (cases: chain-1k-verlet," "and lists the cases"

finish
