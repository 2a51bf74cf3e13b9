#!/bin/sh
# Run directories as transactions (issue 16), end to end and as an attacker would try them: a
# reused directory never passes for the run before it; readers take only the files the
# manifest in summary.json lists and refuse a directory that is running, failed or changed
# (another size, another hash, a FIFO or /dev/zero in place of a file) with exit 2 and never
# hang; symlinks planted at temporary or final names are never followed; a run killed with
# SIGKILL leaves nothing behind after the next run; two runs into one directory cannot
# overlap; files catena did not write are never deleted; SIGTERM and SIGINT end drawing,
# compare, catenary and sweep collect cleanly (128+N, a message, no temporary file).
. "$top_srcdir/tests/lib.sh"
cd "$tmp" || exit 99

small_rope small.json small 20 '"trajectory": ["csv"], "every": 1'
points=5

# temporaries DIR: the number of temporary files (".NAME.catena.tmp.PID.RANDOM" and the old
# ".NAME.tmp.PID") and lock files under DIR.
temporaries() {
    find "$1" \( -name '.*.tmp.*' -o -name .catena.lock \) | wc -l | tr -d ' '
}

# wait_for PATH: until PATH exists (10 s at most).
wait_for() {
    tries=0
    while [ ! -e "$1" ] && [ $tries -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
}

# in_background COMMAND...: runs it with SIGINT at its default (a shell starts background
# jobs with it ignored, and catena keeps an ignored signal ignored), stdout and stderr to
# $tmp/bg.out and $tmp/bg.err; a watchdog kills it after 120 s. Sets $pid.
in_background() {
    env --default-signal=INT "$@" >"$tmp/bg.out" 2>"$tmp/bg.err" &
    pid=$!
    (
        trap 'kill $nap 2>/dev/null; exit 0' TERM
        sleep 120 &
        nap=$!
        wait $nap && kill -KILL $pid
    ) >/dev/null 2>&1 &
    watchdog=$!
}

# finish_background: waits for it; $status gets its exit status and $tmp/err its stderr.
finish_background() {
    status=0
    wait $pid || status=$?
    kill $watchdog 2>/dev/null
    wait $watchdog 2>/dev/null
    cp "$tmp/bg.err" "$tmp/err"
}

# expect_refused DESCRIPTION TEXT COMMAND...: catena COMMAND exits 2 within 20 s (a FIFO
# must not make it wait) and says TEXT.
expect_refused() {
    what=$1
    text=$2
    shift 2
    status=0
    timeout 20 "$CATENA" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
    expect_status 2 "$what: exit 2"
    expect_err "$text" "$what: the message says why"
}

if ! env --default-signal=INT true 2>/dev/null; then
    echo "SKIP: env has no --default-signal"
    exit 77
fi

# --- the reused directory of issue 16: the second run replaces the first, so a comparison
# with the first's reference differs, and render draws the second

catena run -q small.json -o ref --format npy
catena run -q small.json -o ci --format npy
catena run -q small.json -o ci --format csv --set solver.iterations=5 --set world.gravity='[0,-20]'
expect_status 0 "a second run into a directory: exit 0"
check "the second run removed the first's trajectory.npy" test ! -e ci/trajectory.npy
catena compare ci ref --atol 0 --rtol 0
expect_status 1 "compare of the reused directory with the first run's reference: exit 1"
expect_out "A: ci/trajectory.csv" "compare reads the trajectory the second run wrote"
catena render -q ci --every 10
expect_status 0 "render of the reused directory: exit 0"
check "render.json names the run it drew" \
    grep -qF "$(sed -n 's/.*"run_id":[^"]*"\([0-9a-f]*\)".*/\1/p' ci/summary.json)" ci/render.json
expect_eq "$(ls ci/frames | wc -l | tr -d ' ')" 3 "the frames of the second run: steps 0, 10, 20"
catena run -q small.json -o ci --format csv
check "a new run removes the frames of the old one" test ! -e ci/frames
check "and its render.json" test ! -e ci/render.json
expect_eq "$(temporaries ci)" 0 "no temporary or lock file stays"

# --- summary.json while the run runs: "running", written first; a second run into the
# directory exits 2; readers refuse it

in_background "$CATENA" run -q --steps 2000000000 --every 1000 -o busy small.json
wait_for busy/scenario.json
sleep 0.2
check "summary.json says running while the run runs" json_has busy/summary.json status '"running"'
catena run -q small.json -o busy
expect_status 2 "a second run into a directory in use: exit 2"
expect_err "catena: busy: another catena holds this directory" \
    "the second run names the directory and says another catena holds it"
expect_refused "compare of a running run" "busy: the run is not finished" compare busy ref
kill -TERM $pid
finish_background
expect_status 143 "the first run, sent SIGTERM: exit 143"
check "summary.json says interrupted" json_has busy/summary.json status '"interrupted"'
catena compare busy busy
expect_status 0 "an interrupted run can be read"

# --- SIGKILL mid-run, then a rerun: the killed run's files and temporaries go

in_background "$CATENA" run -q --steps 2000000000 --every 1000 --format csv,npy -o killed \
    small.json
wait_for killed/summary.json
sleep 0.3
kill -KILL $pid
finish_background
check "a killed run leaves summary.json running" json_has killed/summary.json status '"running"'
check "a killed run leaves its temporaries" test "$(temporaries killed)" -gt 1
expect_refused "compare of a killed run" "killed: the run did not finish" compare killed ref
catena run -q small.json -o killed --format json
expect_status 0 "a rerun after a killed run: exit 0"
expect_eq "$(temporaries killed)" 0 "the killed run's temporaries are gone"
check "the killed run's scenario.json was rewritten, its trajectory.npy removed" \
    test ! -e killed/trajectory.npy -a ! -e killed/trajectory.csv
check "the rerun is ok" json_has killed/summary.json status '"ok"'

# the temporaries of earlier catena versions (".NAME.tmp.PID") of dead processes go too
mkdir old
: >old/.trajectory.csv.tmp.999999999
: >old/.notes.txt.tmp.999999999
catena run -q small.json -o old
check "an old-style temporary of a dead run goes" test ! -e old/.trajectory.csv.tmp.999999999
check "a file of that form not named as catena's output stays" test -e old/.notes.txt.tmp.999999999

# --- symlinks planted at the final name and at the temporary names: never followed

echo precious >victim
mkdir planted
ln -s "$tmp/victim" planted/trajectory.csv
ln -s "$tmp/victim" planted/summary.json
# the names temporaries had before they were random (exec keeps the shell's PID)
sh -c 'for n in trajectory.csv summary.json scenario.json events.csv metrics.csv; do
           ln -s "$1" "$2/.$n.tmp.$$"; done; shift 2; exec "$@"' sh "$tmp/victim" planted \
    "$CATENA" run -q small.json -o planted
check "symlinks at the final names are replaced, not written through" \
    test ! -L planted/trajectory.csv -a ! -L planted/summary.json
expect_eq "$(cat victim)" precious "the file the symlinks point to is untouched"
catena compare planted ref
expect_status 0 "the run with planted symlinks is whole"

# --- readers refuse what catena did not write: FIFO and /dev/zero as summary.json or as a
# listed file, a manifest that lies about sizes, a file changed in place

cp -r ref bad
rm bad/summary.json
mkfifo bad/summary.json
expect_refused "compare, summary.json a FIFO" "bad/summary.json: not a regular file" compare bad ref
expect_refused "catenary, summary.json a FIFO" "bad/summary.json: not a regular file" catenary bad
expect_refused "render, summary.json a FIFO" "bad/summary.json: not a regular file" render bad
rm bad/summary.json
ln -s /dev/zero bad/summary.json
expect_refused "compare, summary.json /dev/zero" "bad/summary.json: a symbolic link" compare bad ref
rm bad/summary.json
cp ref/summary.json bad/
mv bad/trajectory.npy bad/real.npy
mkfifo bad/trajectory.npy
expect_refused "compare, the listed trajectory a FIFO" "trajectory.npy is not a regular file" \
    compare bad ref
rm bad/trajectory.npy
ln -s /dev/zero bad/trajectory.npy
expect_refused "compare, the listed trajectory /dev/zero" \
    "trajectory.npy is not a regular file" compare bad ref
rm bad/trajectory.npy
mkfifo fifo.csv
expect_refused "compare of a FIFO given as a file" "fifo.csv: not a regular file" \
    compare fifo.csv ref
expect_refused "compare of /dev/zero given as a file" "/dev/zero: not a regular file" \
    compare /dev/zero ref
mv bad/real.npy bad/trajectory.npy
catena compare bad ref
expect_status 0 "the directory put back is read again"
size=$(wc -c <bad/trajectory.npy | tr -d ' ')
sed "s/\"size\":	$size,/\"size\":	$((size + 8)),/" ref/summary.json >bad/summary.json
expect_refused "a manifest that lies about a size" \
    "bad: trajectory.npy holds $size bytes, summary.json lists $((size + 8))" compare bad ref
cp ref/summary.json bad/
printf 'A' | dd of=bad/trajectory.npy bs=1 seek=200 conv=notrunc 2>/dev/null
expect_refused "a listed file changed in place" "its SHA-256 is not the one summary.json lists" \
    compare bad ref
expect_refused "catenary of the changed run" "its SHA-256 is not the one" catenary bad
expect_refused "render of the changed run" "its SHA-256 is not the one" render bad
catena compare bad/trajectory.npy ref/trajectory.npy --atol 0 --rtol 0
expect_status 1 "a file path given explicitly still works (and differs)"
rm bad/trajectory.npy
expect_refused "a listed file missing" "summary.json lists trajectory.npy, which is missing" \
    compare bad ref

# a run into a directory whose summary.json is a FIFO does not wait on it
mkdir fifo
mkfifo fifo/summary.json
status=0
timeout 20 "$CATENA" run -q small.json -o fifo >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 0 "a run into a directory whose summary.json is a FIFO: exit 0"

# --- files catena did not write are never deleted, even when a manifest lists them

mkdir own
echo mine >own/notes.txt
echo mine >own/trajectory.json
catena run -q small.json -o own
cp own/trajectory.csv own/keep.csv
relist own scenario.json trajectory.csv notes.txt keep.csv
catena run -q small.json -o own --format npy
check "a listed file not named as catena's output stays" test -e own/notes.txt -a -e own/keep.csv
check "an unlisted file stays, though catena writes that name" test -e own/trajectory.json
check "the earlier run's listed trajectory.csv is gone" test ! -e own/trajectory.csv
catena compare own ref
expect_status 0 "and the unlisted trajectory.json is not read: trajectory.npy is"

# --- SIGTERM while drawing: run --render and catena render stop after the frame being
# written, say so, exit 143, leave no temporary file and record "interrupted"

cat >long.json <<'JSON'
{
  "catena": 1, "name": "long", "dimensions": 2,
  "time": { "dt": 0.01, "steps": 3000 },
  "bodies": [ { "type": "rope", "name": "rope", "from": [0, 0], "to": [1, 0], "segments": 4,
                "mass": 1, "pins": ["first"] } ],
  "output": { "trajectory": ["npy"], "render": { "fps": 60 } }
}
JSON
in_background "$CATENA" run -q long.json -o draw
wait_for draw/frames/frame-000002.png
kill -TERM $pid
finish_background
expect_status 143 "SIGTERM while run --render draws: exit 143"
expect_err "interrupted by SIGTERM while drawing" "SIGTERM while drawing: the message says so"
check "summary.json says interrupted" json_has draw/summary.json status '"interrupted"'
check "render.json says interrupted" json_has draw/render.json status '"interrupted"'
expect_eq "$(temporaries draw)" 0 "SIGTERM while drawing: no temporary file"
listed=$(grep -c '"name":.*frame-' draw/render.json)
expect_eq "$(ls draw/frames | wc -l | tr -d ' ')" "$listed" "every frame drawn is listed, no more"

sed 's/, "render": { "fps": 60 }//' long.json >long-norender.json
catena run -q long-norender.json -o drawn
in_background "$CATENA" render -q drawn --fps 60
wait_for drawn/frames/frame-000002.png
kill -INT $pid
finish_background
expect_status 130 "SIGINT while catena render draws: exit 130"
expect_err "interrupted by SIGINT while drawing" "SIGINT while rendering: the message says so"
check "render.json says interrupted" json_has drawn/render.json status '"interrupted"'
check "summary.json still says ok" json_has drawn/summary.json status '"ok"'
expect_eq "$(temporaries drawn)" 0 "SIGINT while rendering: no temporary file"

# --- SIGTERM while reading: a sparse NPY of 4 GB (50 million frames of 5 points in 2D, no
# disk used) takes compare and catenary seconds to read

# npy_header FRAMES: the header of an NPY file of FRAMES frames of 5 points in 2D.
npy_header() {
    dict="{'descr': '<f8', 'fortran_order': False, 'shape': ($1, 5, 2), }"
    pad=$((64 - (10 + ${#dict} + 1) % 64))
    len=$((${#dict} + pad + 1))
    printf '\223NUMPY\001\000'
    printf "\\$(printf %03o $((len % 256)))\\$(printf %03o $((len / 256)))"
    printf "%s%${pad}s\n" "$dict" ''
}
npy_header 50000000 >huge.npy
truncate -s $(($(wc -c <huge.npy) + 50000000 * 80)) huge.npy
in_background "$CATENA" compare huge.npy huge.npy
sleep 0.5
kill -TERM $pid
finish_background
expect_status 143 "SIGTERM while compare reads: exit 143"
expect_err "huge.npy: interrupted by SIGTERM" "SIGTERM while compare reads: the message says so"
in_background "$CATENA" catenary huge.npy --scenario small.json
sleep 0.5
kill -INT $pid
finish_background
expect_status 130 "SIGINT while catenary reads: exit 130"
expect_err "interrupted by SIGINT" "SIGINT while catenary reads: the message says so"

# --- sweep collect: summary.json a FIFO or /dev/zero never hangs; SIGTERM while it checks a
# large file (a listed metrics.csv of 8 GB, sparse) ends it without sweep.csv

cat >sw.json <<'JSON'
{ "base": "small.json", "vary": { "solver.iterations": [2, 3] },
  "collect": ["metrics.max_stretch"] }
JSON
catena sweep sw.json -o sw
expect_status 0 "a sweep of two runs: exit 0"
rm sw/sweep.csv sw/runs/iterations=2/summary.json
mkfifo sw/runs/iterations=2/summary.json
status=0
timeout 20 "$CATENA" sweep collect sw >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 1 "sweep collect, a summary.json a FIFO: exit 1, no wait"
expect_err "iterations=2: stale: sw/runs/iterations=2/summary.json: not a regular file" \
    "sweep collect names the FIFO"
rm sw/runs/iterations=2/summary.json
ln -s /dev/zero sw/runs/iterations=2/summary.json
status=0
timeout 20 "$CATENA" sweep collect sw >"$tmp/out" 2>"$tmp/err" || status=$?
expect_status 1 "sweep collect, a summary.json /dev/zero: exit 1, nothing read"
expect_err "summary.json: a symbolic link" "sweep collect names /dev/zero's link"
run3=sw/runs/iterations=3
truncate -s 8G $run3/metrics.csv
awk -v size=8589934592 '/"name":.*"metrics.csv"/ { m = 1 } m && /"size":/ { sub(/[0-9]+/, size); m = 0 }
    { print }' $run3/summary.json >$run3/s.new && mv $run3/s.new $run3/summary.json
rm sw/sweep.csv
in_background "$CATENA" sweep collect sw
sleep 0.5
kill -TERM $pid
finish_background
expect_status 143 "SIGTERM while sweep collect checks a large file: exit 143"
expect_err "sw/sweep.csv: interrupted by SIGTERM" "SIGTERM in sweep collect: the message says so"
check "SIGTERM in sweep collect: no sweep.csv" test ! -e sw/sweep.csv
expect_eq "$(temporaries sw)" 0 "SIGTERM in sweep collect: no temporary file"
rm huge.npy $run3/metrics.csv

# a symlink planted at a run's log: the sweep does not write through it
mkdir -p sw2/runs/iterations=2
ln -s "$tmp/victim" sw2/runs/iterations=2/catena.log
cat >sw2.json <<'JSON'
{ "base": "small.json", "vary": { "solver.iterations": [2] } }
JSON
catena sweep sw2.json -o sw2
expect_status 1 "a sweep whose run log is a planted symlink: exit 1"
expect_err "sw2/runs/iterations=2/catena.log: cannot open: Too many levels of symbolic links" \
    "the sweep says why the run could not start"
expect_eq "$(cat victim)" precious "the file the log's symlink points to is untouched"

finish
