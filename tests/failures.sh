#!/bin/sh
# Failures during a run, end to end: an output directory that cannot be made or written,
# a full disk (a 64 KiB tmpfs when this runs as root and may mount, and /dev/full in
# place of one output file for anyone), the output directory deleted mid-run, SIGINT and
# a divergence. Each ends with exit status 1 (130 for SIGINT) and a message naming the
# file, and never leaves a file under its final name that is incomplete.
. "$top_srcdir/tests/lib.sh"

# A 5-point rope pinned at one end.
small_rope "$tmp/small.json" small 20 '"trajectory": ["csv"], "every": 1'
points=5

# expect_message TEXT DESCRIPTION: stderr is exactly the line "catena: TEXT".
expect_message() {
    if [ "$(cat "$tmp/err")" = "catena: $1" ]; then
        pass "$2"
    else
        fail "$2 (expected 'catena: $1')"
    fi
}

# expect_empty DIR DESCRIPTION: DIR holds nothing at all (no output, no temporary file).
expect_empty() {
    if [ -z "$(ls -A "$1" 2>/dev/null)" ]; then
        pass "$2"
    else
        fail "$2 (found: $(ls -A "$1" | tr '\n' ' '))"
    fi
}

# no_temp_files DIR DESCRIPTION
no_temp_files() {
    expect_eq "$(find "$1" -name '.*.tmp.*' | wc -l | tr -d ' ')" 0 "$2"
}

# whole_csv FILE DESCRIPTION: a header and whole frames of $points rows.
whole_csv() {
    n=$(lines "$1")
    expect_eq $(((n - 1) % points)) 0 "$2"
}

# wait_for_dir DIR: until DIR exists (the run catches signals before it makes DIR).
wait_for_dir() {
    tries=0
    while [ ! -d "$1" ] && [ $tries -lt 300 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
}

# in_background COMMAND...: runs it in the background (stdout, stderr to $tmp) with a watchdog
# that kills it after 120 s, so a run that fails to stop fails the test instead of
# hanging it. Sets $pid and $watchdog.
in_background() {
    "$@" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    (
        trap 'kill $nap 2>/dev/null; exit 0' TERM
        sleep 120 &
        nap=$!
        wait $nap && kill -KILL $pid
    ) >/dev/null 2>&1 &
    watchdog=$!
}

finish_background() {
    status=0
    wait $pid || status=$?
    kill $watchdog 2>/dev/null
    wait $watchdog 2>/dev/null
}

can_mount=no
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/probe" &&
    mount -t tmpfs -o size=64k tmpfs "$tmp/probe" 2>/dev/null; then
    umount "$tmp/probe"
    can_mount=yes
fi
# Mounts made here are undone however the test ends.
mounts=
trap 'for m in $mounts; do umount "$m" 2>/dev/null; done; rm -rf "$tmp"' EXIT

# --- an output directory that cannot be made: a regular file is in the way

: >"$tmp/file"
catena run -q -o "$tmp/file/out" "$tmp/small.json"
expect_status 1 "output below a regular file: exit 1"
expect_message "$tmp/file: cannot create directory: File exists" \
    "output below a regular file: the message names the file in the way"

# --- an output directory that cannot be written: read-only permissions (which root
# ignores), or as root a read-only tmpfs

mkdir "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
    chmod 555 "$tmp/ro"
    catena run -q -o "$tmp/ro" "$tmp/small.json"
    expect_status 1 "read-only output directory: exit 1"
    expect_message "$tmp/ro/scenario.json: cannot create: Permission denied" \
        "read-only output directory: the message names the file"
    expect_empty "$tmp/ro" "read-only output directory: nothing written"
    chmod 755 "$tmp/ro"
elif [ $can_mount = yes ] && mount -t tmpfs -o ro,size=64k tmpfs "$tmp/ro"; then
    mounts="$mounts $tmp/ro"
    catena run -q -o "$tmp/ro" "$tmp/small.json"
    expect_status 1 "read-only file system: exit 1"
    expect_message "$tmp/ro/scenario.json: cannot create: Read-only file system" \
        "read-only file system: the message names the file"
    expect_empty "$tmp/ro" "read-only file system: nothing written"
else
    echo "SKIP: unwritable directory (root without permission to mount)"
fi

# --- a full disk: a 64 KiB tmpfs that 2000 frames of CSV (~150 KiB) overflow

if [ $can_mount = yes ]; then
    mkdir "$tmp/full"
    mount -t tmpfs -o size=64k tmpfs "$tmp/full"
    mounts="$mounts $tmp/full"
    catena run -q --steps 2000 --format csv,npy -o "$tmp/full/run" "$tmp/small.json"
    expect_status 1 "full file system: exit 1"
    expect_message "$tmp/full/run/trajectory.csv: cannot write: No space left on device" \
        "full file system: the message names the file"
    # scenario.json and model.json, written whole before the run started, are all that stay.
    expect_eq "$(ls -A "$tmp/full/run" | tr '\n' ' ')" "model.json scenario.json " \
        "full file system: no partial file, no temporary file"
else
    echo "SKIP: full tmpfs (needs root and permission to mount)"
fi

# --- a full disk for one file: its temporary name (".NAME.tmp.PID", and exec keeps the
# shell's PID) is made a link to /dev/full, where every write fails with ENOSPC

if [ -w /dev/full ]; then
    # full_file NAME DIR ARGUMENT...: runs catena into DIR with NAME's writes failing.
    full_file() {
        name=$1
        dir=$2
        shift 2
        mkdir -p "$dir"
        status=0
        sh -c 'ln -s /dev/full "$1/.$2.tmp.$$" && shift 2 && exec "$@"' sh "$dir" "$name" \
            "$CATENA" "$@" -o "$dir" >"$tmp/out" 2>"$tmp/err" || status=$?
    }
    full_file trajectory.npy "$tmp/fullnpy" run -q --format csv,npy "$tmp/small.json"
    expect_status 1 "trajectory.npy on a full disk: exit 1"
    expect_message "$tmp/fullnpy/trajectory.npy: cannot write: No space left on device" \
        "trajectory.npy on a full disk: the message names the file"
    check "trajectory.npy on a full disk: no trajectory.npy" test ! -e "$tmp/fullnpy/trajectory.npy"
    check "trajectory.npy on a full disk: no summary.json" test ! -e "$tmp/fullnpy/summary.json"
    no_temp_files "$tmp/fullnpy" "trajectory.npy on a full disk: no temporary file"

    full_file summary.json "$tmp/fullsum" run -q "$tmp/small.json"
    expect_status 1 "summary.json on a full disk: exit 1"
    expect_message "$tmp/fullsum/summary.json: cannot write: No space left on device" \
        "summary.json on a full disk: the message names the file"
    check "summary.json on a full disk: no summary.json" test ! -e "$tmp/fullsum/summary.json"
    expect_eq "$(lines "$tmp/fullsum/trajectory.csv")" $((1 + 21 * points)) \
        "summary.json on a full disk: the trajectory, written before, is whole"
    no_temp_files "$tmp/fullsum" "summary.json on a full disk: no temporary file"
else
    echo "SKIP: /dev/full is not writable"
fi

# --- the output directory deleted mid-run: the run notices at its next flush (every
# 64 KiB), stops, and says so

in_background "$CATENA" run -q --steps 2000000000 -o "$tmp/gone" "$tmp/small.json"
wait_for_dir "$tmp/gone"
sleep 0.3
rm -rf "$tmp/gone"
finish_background
expect_status 1 "output directory deleted mid-run: exit 1"
expect_message "$tmp/gone/trajectory.csv: cannot write: the file was deleted during the run (was the output directory removed?)" \
    "output directory deleted mid-run: the message says what happened"
check "output directory deleted mid-run: nothing reappears" test ! -e "$tmp/gone"

# --- SIGINT: a shell starts background jobs with SIGINT ignored (and catena keeps an
# ignored signal ignored), so env restores its default before catena starts

if env --default-signal=INT true 2>/dev/null; then
    in_background env --default-signal=INT "$CATENA" run -q --steps 2000000000 --every 1000 \
        -o "$tmp/int" "$tmp/small.json"
    wait_for_dir "$tmp/int"
    sleep 0.3
    kill -INT $pid
    finish_background
    expect_status 130 "SIGINT: exit 130"
    step=$(sed -n 's/^catena: .*: interrupted by SIGINT at step \([0-9]*\) of 2000000000$/\1/p' \
        "$tmp/err")
    check "SIGINT: the message gives the step" test -n "$step"
    check "SIGINT: summary.json says interrupted" json_has "$tmp/int/summary.json" status \
        '"interrupted"'
    check "SIGINT: summary.json gives the last step" json_has "$tmp/int/summary.json" \
        steps_done "${step:-x}"
    expect_eq "$(lines "$tmp/int/trajectory.csv")" $((1 + (${step:-0} / 1000 + 1) * points)) \
        "SIGINT: every frame up to the last step is in the trajectory"
    no_temp_files "$tmp/int" "SIGINT: no temporary file"
else
    echo "SKIP: SIGINT (env has no --default-signal)"
fi

# --- divergence: the summary names the step and the point the message names

catena run -q --set world.gravity='[0,-1e14]' --set time.dt=1 --format csv,npy \
    -o "$tmp/div" "$tmp/small.json"
expect_status 1 "divergence: exit 1"
step=$(sed -n 's/^catena: .*: diverged at step \([0-9]*\): point \(rope\.[0-9]*\) .*/\1/p' "$tmp/err")
point=$(sed -n 's/^catena: .*: diverged at step \([0-9]*\): point \(rope\.[0-9]*\) .*/\2/p' "$tmp/err")
check "divergence: the message names step and point" test -n "$step" -a -n "$point"
check "divergence: summary.json says diverged" json_has "$tmp/div/summary.json" status '"diverged"'
check "divergence: summary.json gives the step" json_has "$tmp/div/summary.json" step "${step:-x}"
check "divergence: summary.json gives the point" json_has "$tmp/div/summary.json" point \
    "\"${point:-x}\""
whole_csv "$tmp/div/trajectory.csv" "divergence: the trajectory keeps whole frames"
check "divergence: the npy is committed" test -f "$tmp/div/trajectory.npy"
no_temp_files "$tmp/div" "divergence: no temporary file"

finish
