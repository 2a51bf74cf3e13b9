#!/bin/sh
# catena compare and catena catenary on truncated or malformed trajectories: exit 2 and
# one message that names the file and the line (LINE:COL for JSON) where it broke, the
# same for both commands; then real trajectories cut short at an arbitrary byte, as a run
# killed by a full disk or a crash (never renamed into place by catena) would leave them.
. "$top_srcdir/tests/lib.sh"

data=$top_srcdir/tests/data/traj

# A scenario of the 3 points in tests/data/traj (both ends pinned), for catena catenary.
cat >"$tmp/tri.json" <<'JSON'
{"catena": 1, "name": "tri", "time": {"dt": 0.1, "steps": 20},
 "points": [{"p": [0, 0], "mass": 1}, {"p": [0.5, -0.25], "mass": 1}, {"p": [1, 0], "mass": 1}],
 "links": [{"a": 0, "b": 1}, {"a": 1, "b": 2}], "pins": [{"point": 0}, {"point": 2}]}
JSON

# both FILE MESSAGE: compare (against small.csv) and catenary refuse FILE with exit 2 and
# exactly "catena: FILE MESSAGE". Run inside tests/data/traj so that FILE is a bare name.
both() {
    for command in compare catenary; do
        status=0
        if [ $command = compare ]; then
            (cd "$data" && "$CATENA" compare small.csv "$1") >"$tmp/out" 2>"$tmp/err" || status=$?
        else
            (cd "$data" && "$CATENA" catenary --scenario "$tmp/tri.json" --points 0..2 "$1") \
                >"$tmp/out" 2>"$tmp/err" || status=$?
        fi
        expect_status 2 "$command $1: exit 2"
        expect_eq "$(cat "$tmp/err")" "catena: $1$2" "$command $1: the message says where"
    done
}

both truncated-frame.csv ":6: truncated: frame at step 10 has 2 of 3 points"
both no-newline.csv ":10: truncated: the last line has no newline"
both missing-point.csv ":7: frame at step 10 has 2 of 3 points"
both bad-number.csv ':6: y: "-0.2x5" is not a number'
both fields.csv ":9: expected 5 fields, got 3"
both steps-decrease.csv ":8: step 5 after step 10 (steps must increase)"
both truncated.json ":4:22: truncated: end of file in frames[2]"
both syntax.json ":3:39: JSON syntax error in frames[1]"
both underflow.json ":3:39: number -1e-400 is too small for a double (it would read as 0; write 0 if that is meant) in frames[1]"
both key-newline.json ':2:8: JSON syntax error in bad\x0akey'
both wrong-count.json ": frames[1].x: expected 3 points, got 2"
both truncated.npy ": truncated: expected 144 bytes of data, found 124"
both truncated-header.npy ": truncated: expected 128 bytes of header, found 40"

# --- a real run's files, cut at a byte in the middle of a line

cat >"$tmp/rope.json" <<'JSON'
{"catena": 1, "name": "rope", "time": {"dt": 0.01, "steps": 40},
 "bodies": [{"type": "rope", "name": "rope", "from": [0, 0], "to": [2, 0], "segments": 4,
             "length": 2.5, "mass": 1, "pins": ["first", "last"]}],
 "output": {"trajectory": ["csv", "json", "npy"], "every": 10}}
JSON
catena run -q -o "$tmp/run" "$tmp/rope.json"
expect_status 0 "the reference run exits 0"
for f in csv json npy; do
    size=$(wc -c <"$tmp/run/trajectory.$f" | tr -d ' ')
    head -c $((size * 2 / 3 + 3)) "$tmp/run/trajectory.$f" >"$tmp/cut.$f"
    catena compare "$tmp/cut.$f" "$tmp/run/trajectory.$f"
    expect_status 2 "compare: trajectory.$f cut at 2/3: exit 2"
    case $f in
    csv) pattern="^catena: $tmp/cut.csv:[0-9][0-9]*: " ;;
    json) pattern="^catena: $tmp/cut.json:[0-9][0-9]*:[0-9][0-9]*: truncated" ;;
    npy) pattern="^catena: $tmp/cut.npy: truncated: expected [0-9]* bytes of data, found " ;;
    esac
    check "compare: trajectory.$f cut at 2/3: one line that says where" \
        sh -c 'test "$(wc -l <"$1")" -eq 1 && grep -q "$2" "$1"' sh "$tmp/err" "$pattern"
done

# --- trajectory-frames.npy (the steps and times of the NPY frames): one that
# does not fit its trajectory.npy is refused, not trusted

cat >"$tmp/settle.json" <<'JSON'
{"catena": 1, "name": "settle", "time": {"dt": 0.008333333333333333, "steps": 2400,
 "until_settled": {"speed": 0.01, "for": 0.5}}, "solver": {"method": "xpbd", "damping": 0.05},
 "points": [{"p": [0, 0], "mass": 0}, {"p": [1, 0], "mass": 1}], "links": [{"a": 0, "b": 1}],
 "output": {"every": 10, "trajectory": ["npy"]}}
JSON
catena run -q -o "$tmp/settle" "$tmp/settle.json"
expect_status 0 "the settling run exits 0"
mkdir "$tmp/side"
cp "$tmp/settle/trajectory.npy" "$tmp/side/t.npy"
size=$(wc -c <"$tmp/settle/trajectory-frames.npy" | tr -d ' ')
frames=$(((size - 128) / 16)) # a 128-byte header, then 16 bytes a frame
head -c $((size - 8)) "$tmp/settle/trajectory-frames.npy" >"$tmp/side/t-frames.npy"
catena compare "$tmp/side/t.npy" "$tmp/settle"
expect_status 2 "compare: frames file cut short: exit 2"
expect_err "catena: $tmp/side/t-frames.npy: expected $((frames * 16)) bytes of data, found $((frames * 16 - 8))" \
    "compare: frames file cut short: the message says so"
cp "$tmp/run/trajectory.npy" "$tmp/side/t.npy"
cp "$tmp/settle/trajectory-frames.npy" "$tmp/side/t-frames.npy"
catena compare "$tmp/side/t.npy" "$tmp/run"
expect_status 2 "compare: frames file of another run: exit 2"
expect_err "catena: $tmp/side/t-frames.npy: expected '<f8' rows (step, time) in C order, shape (5, 2), one for each frame of $tmp/side/t.npy" \
    "compare: frames file of another run: the message names both files"

finish
