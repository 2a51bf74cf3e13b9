#!/bin/sh
# Load: a sweep of 10 000 runs of a tiny scenario (100 time steps x 100 iteration counts,
# the 10 largest time steps diverging) completes with every run accounted for in
# sweep.csv: 10 000 rows, each run once, 9000 "ok" and 1000 "failed" with exit status 1,
# none missing. Run by `make check-slow` (minutes, not seconds).
. "$top_srcdir/tests/lib.sh"

if [ "${CATENA_SLOW_TESTS:-0}" != 1 ]; then
    echo "SKIP: a slow test: make check-slow runs it"
    exit 77
fi

# A pendulum and a free stone: with dt = 1e7 s the stone falls past 1e12 m in one step.
cat >"$tmp/tiny.json" <<'JSON'
{"catena": 1, "name": "tiny", "time": {"dt": 0.01, "steps": 5},
 "points": [{"name": "pivot", "p": [0, 0], "mass": 1}, {"name": "bob", "p": [1, 0], "mass": 1},
            {"name": "stone", "p": [2, 0], "mass": 1}],
 "links": [{"a": "pivot", "b": "bob"}], "pins": [{"point": "pivot"}],
 "output": {"trajectory": ["csv"], "every": 5}}
JSON
awk 'BEGIN {
    printf "{\"base\": \"tiny.json\", \"collect\": [\"summary.steps_done\"], \"vary\": {\"time.dt\": ["
    for (i = 1; i <= 100; i++)
        printf "%s%s", (i > 1 ? ", " : ""), (i <= 90 ? sprintf("%.3f", i / 1000) : sprintf("%d", 1e7 + i))
    printf "], \"solver.iterations\": ["
    for (i = 1; i <= 100; i++)
        printf "%s%d", (i > 1 ? ", " : ""), i
    printf "]}}\n"
}' >"$tmp/sweep.json"

start=$(date +%s)
catena sweep "$tmp/sweep.json" -o "$tmp/sweep" -j 2
end=$(date +%s)
echo "# 10000 runs in $((end - start)) s"
expect_status 1 "the sweep exits 1 (some runs diverge)"
expect_err "catena: $tmp/sweep.json: 1000 of 10000 runs did not finish (see $tmp/sweep/sweep.csv)" \
    "the sweep counts the runs that did not finish"

csv=$tmp/sweep/sweep.csv
expect_eq "$(lines "$csv")" 10001 "sweep.csv: a header and 10000 rows"
# The last two fields are status and exit code, then the quoted name (it holds a comma).
sed 1d "$csv" | sed 's/.*,\([a-z]*\),\([0-9]*\),"[^"]*"$/\1 \2/' | sort | uniq -c |
    awk '{ print $2 "/" $3 "=" $1 }' | tr '\n' ' ' >"$tmp/counts"
expect_eq "$(cat "$tmp/counts")" "failed/1=1000 ok/0=9000 " "sweep.csv: 9000 ok, 1000 failed, none missing"
expect_eq "$(sed 1d "$csv" | sed 's/.*,"\([^"]*\)"$/\1/' | sort -u | wc -l | tr -d ' ')" 10000 \
    "sweep.csv: every run once"
expect_eq "$(find "$tmp/sweep/runs" -name summary.json | wc -l | tr -d ' ')" 10000 \
    "every run wrote its summary.json"

finish
