#!/bin/sh
# Plots from the command line: `catena plot RUN` (metrics over time: one panel per metric,
# RUN/metrics.png by default, -o, --metric, a metrics file given directly) and `catena sweep
# plot DIR` (a collected value against a varied path, one line per value of another, --by,
# --log, paths by their last part), the same bytes on a rerun, and bad input refused with
# exit status 2 and a message that names it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sweep-lib.sh"

# png_size FILE: "WIDTHxHEIGHT" from the PNG header (big-endian words at bytes 16 and 20).
png_size() {
    set -- $(od -An -tu1 -j16 -N8 "$1")
    echo "$(($1 * 16777216 + $2 * 65536 + $3 * 256 + $4))x$(($5 * 16777216 + $6 * 65536 + $7 * 256 + $8))"
}

is_png() {
    [ "$(od -An -c -j1 -N3 "$1" | tr -d ' ')" = PNG ]
}

cd "$tmp" || exit 99

# --- catena plot

small_rope rope.json rope 50 '"trajectory": ["csv"], "every": 5'
catena run -q rope.json -o run
expect_status 0 "the run to plot exits 0"

catena plot run
expect_status 0 "plot exits 0"
check "plot prints nothing when all is well" test ! -s "$tmp/err"
check "plot writes RUN/metrics.png" is_png run/metrics.png
# The figure: 900 px wide; a 28 px title, four 260 px panels, a 24 px strip for the time
# axis's title.
expect_eq "$(png_size run/metrics.png)" 900x1092 "four panels by default"

catena plot run --metric energy,live_links -o two.png
expect_status 0 "plot --metric exits 0"
expect_eq "$(png_size two.png)" 900x572 "--metric energy,live_links: two panels"
cp two.png two-first.png
catena plot run/metrics.csv --metric energy,live_links -o two.png
expect_status 0 "plot takes a metrics file itself"
check "the same bytes from the file and on a rerun" cmp -s two.png two-first.png

catena plot run --metric energy,speedy
expect_status 2 "an unknown metric: exit 2"
expect_err "catena: --metric: unknown metric 'speedy' (known: energy, kinetic," \
    "the message names the option, the metric and the known ones"
catena plot run --metric enrgy
expect_err "catena: --metric: unknown metric 'enrgy' (did you mean 'energy'? known: energy," \
    "a near miss gets a did-you-mean"

catena plot run/metrics.csv
expect_status 2 "a metrics file without -o: exit 2"
expect_err "give -o FILE.png" "the message says to give -o"

mkdir empty
catena plot empty
expect_status 2 "a directory without metrics.csv: exit 2"
expect_err "catena: empty: the run wrote no metrics.csv (output.metrics)" \
    "the message names the missing file"
mkdir -p fifo && mkfifo fifo/metrics.csv
catena plot fifo
expect_status 2 "a metrics.csv that is not a regular file: exit 2"

printf 'step,time,kinetic\n0,0,1\n1,0.1\n' >ragged.csv
catena plot ragged.csv --metric kinetic -o ragged.png
expect_status 2 "a ragged metrics file: exit 2"
expect_err "ragged.csv:3: 2 fields where the header has 3" "the message names the line"

printf 'step,time,kinetic\n0,0,1\n' >nopot.csv
catena plot nopot.csv --metric energy -o nopot.png
expect_status 2 "a missing column: exit 2"
expect_err "nopot.csv: no column 'potential'" "the message names the column"
check "no picture after an error" test ! -e nopot.png

catena plot
expect_status 2 "plot without RUN_DIR: exit 2"

# --- catena sweep plot

catena sweep six.json -o sw
expect_status 0 "the sweep to plot exits 0"

catena sweep plot sw --x iterations --y max_stretch
expect_status 0 "sweep plot exits 0"
check "sweep plot writes DIR/sweep.png" is_png sw/sweep.png
expect_eq "$(png_size sw/sweep.png)" 900x600 "900 x 600 px"

catena sweep plot sw --x solver.iterations --y summary.final.max_stretch --by order --log y \
    -o by.png
expect_status 0 "sweep plot with full paths, --by and --log exits 0"
check "-o names the file" is_png by.png
cp by.png by-first.png
catena sweep plot sw --x solver.iterations --y summary.final.max_stretch --by order --log y \
    -o by.png
check "the same bytes on a rerun" cmp -s by.png by-first.png

catena sweep plot sw --x order --y steps_done -o cat.png
expect_status 0 "a varied value that is not a number makes categories"

catena sweep plot sw --x iterations --y max_stretch --by iterations
expect_status 2 "--by the same path as --x: exit 2"
expect_err "catena: --by: solver.iterations is already --x" "the message says so"

catena sweep plot sw --x iter --y max_stretch
expect_status 2 "a path that names nothing: exit 2"
expect_err "catena: --x: no 'iter' among the varied paths (solver.iterations, solver.order)" \
    "the message lists the varied paths"

catena sweep plot sw --x iterations --y parameters.iterations,
expect_status 2 "a collected path that names nothing: exit 2"

# Two runs that would be one point (a third varied path, neither x nor --by): the message
# names the path that tells them apart.
cat >three.json <<'JSON'
{
  "base": "small.json",
  "vary": { "solver.iterations": [1, 5], "solver.order": ["forward", "alternate"],
            "time.substeps": [1, 2] },
  "collect": ["summary.final.max_stretch"]
}
JSON
catena sweep three.json -o three
expect_status 0 "a sweep of three varied paths exits 0"
catena sweep plot three --x iterations --y max_stretch --by order
expect_status 2 "two runs at one point: exit 2"
expect_err "would be one point: they differ in time.substeps (give --by time.substeps)" \
    "the message names the path that tells them apart"
catena sweep plot three --x iterations --y max_stretch
expect_status 0 "without --by, a line per order and substeps"

catena sweep plot sw --x iterations
expect_status 2 "sweep plot without --y: exit 2"
expect_err "missing --y" "the message names --y"

catena sweep plot sw --x iterations --y max_stretch --log z
expect_status 2 "--log z: exit 2"
expect_err "catena: --log: expected x, y, xy or none, got 'z'" "the message names the option"

catena sweep plot empty --x iterations --y max_stretch
expect_status 2 "a directory that is not a sweep's: exit 2"
expect_err "plan.json: cannot read" "the message names plan.json"

finish
