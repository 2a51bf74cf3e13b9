#!/bin/sh
# A 100 MB scenario (3 million points and links, generated here, never committed) loads
# and validates within bounded time and memory, and one that is 100 MB of a single string
# is refused with a message. Run by `make check-slow`: it takes seconds, not milliseconds.
. "$top_srcdir/tests/lib.sh"

if [ "${CATENA_SLOW_TESTS:-0}" != 1 ]; then
    echo "SKIP: a slow test: make check-slow runs it"
    exit 77
fi

# Bounds, generous for a slow machine (this one: ~6 s and ~1.4 GB for the load): cJSON's
# tree takes ~14 bytes per byte of JSON, and an unbounded growth would blow through these.
time_limit=300
memory_limit_kb=4000000

# Without AddressSanitizer, whose shadow memory reserves terabytes of address space, the
# memory bound is enforced on the address space itself.
limit=
if ! ldd "$CATENA" 2>/dev/null | grep -q libasan; then
    limit="ulimit -v $memory_limit_kb;"
fi

n=1500000
awk -v n=$n 'BEGIN {
    printf "{\"catena\": 1, \"name\": \"big\", \"time\": {\"dt\": 0.01, \"steps\": 1},\n"
    printf "\"points\": [\n"
    for (i = 0; i < n; i++)
        printf "{\"p\": [%d.25, -1.5], \"mass\": 1}%s\n", i, i < n - 1 ? "," : ""
    printf "],\n\"links\": [\n"
    for (i = 0; i < n - 1; i++)
        printf "{\"a\": %d, \"b\": %d}%s\n", i, i + 1, i < n - 2 ? "," : ""
    printf "]}\n"
}' >"$tmp/big.json"
size=$(wc -c <"$tmp/big.json" | tr -d ' ')
check "the scenario is about 100 MB ($size bytes)" test "$size" -gt 90000000

status=0
start=$(date +%s)
sh -c "$limit exec timeout $time_limit \"\$0\" validate \"\$1\"" "$CATENA" "$tmp/big.json" \
    >"$tmp/out" 2>"$tmp/err" || status=$?
end=$(date +%s)
expect_status 0 "a 100 MB scenario validates within $time_limit s and $memory_limit_kb kB"
check "it has $n points" grep -Eq "^points +$n\$" "$tmp/out"
check "it has $((n - 1)) links" grep -Eq "^links +$((n - 1))\$" "$tmp/out"
echo "# validated $size bytes in $((end - start)) s"

# 100 MB of one name: refused by the name check, without a 100 MB message.
awk 'BEGIN { printf "{\"catena\": 1, \"time\": {\"dt\": 0.01, \"steps\": 1}, \"name\": \""
    s = "abcdefghij"; while (length(s) < 100000000) s = s s; printf "%s\"}\n", s }' \
    >"$tmp/long-name.json"
status=0
sh -c "$limit exec timeout $time_limit \"\$0\" validate \"\$1\"" "$CATENA" "$tmp/long-name.json" \
    >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 2 "a 100 MB name is refused"
check "the message stays short" test "$(wc -c <"$tmp/err")" -lt 4096
expect_err "cannot be used as a directory name" "the message says why"

finish
