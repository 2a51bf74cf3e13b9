#!/bin/sh
# Frames from the command line: `catena run --render` and output.render, `catena render
# RUN_DIR` and its options, the files they write (frames/, contact-sheet.png), the same
# bytes from both and on a rerun, and bad options refused with exit status 2.
. "$top_srcdir/tests/lib.sh"

# A 5-point rope swinging from a pin: 60 steps of 1/60 s, 1 s in all.
cat >"$tmp/swing.json" <<'JSON'
{
  "catena": 1,
  "name": "swing",
  "time": { "dt": 0.016666666666666666, "steps": 60 },
  "bodies": [
    { "type": "rope", "name": "rope", "from": [0, 0], "to": [1, 0], "segments": 4,
      "mass": 1, "pins": ["first"] }
  ],
  "output": { "trajectory": ["csv"], "render": { "fps": 20, "size": [160, 120] } }
}
JSON

# png_size FILE: "WIDTHxHEIGHT" from the PNG header (big-endian words at bytes 16 and 20).
png_size() {
    set -- $(od -An -tu1 -j16 -N8 "$1")
    echo "$(($1 * 16777216 + $2 * 65536 + $3 * 256 + $4))x$(($5 * 16777216 + $6 * 65536 + $7 * 256 + $8))"
}

count_frames() {
    find "$1/frames" -name 'frame-*.png' | wc -l | tr -d ' '
}

# --- output.render in the scenario: catena run draws

catena run -q -o "$tmp/a" "$tmp/swing.json"
expect_status 0 "run with output.render exits 0"
check "run prints nothing when all is well" test ! -s "$tmp/err"
expect_eq "$(count_frames "$tmp/a")" 21 "1 s at 20 fps: 21 frames"
expect_eq "$(png_size "$tmp/a/frames/frame-000000.png")" 160x120 "frames are the size asked for"
check "the run keeps its scenario for catena render" test -f "$tmp/a/scenario.json"
check "no contact sheet unless asked" test ! -e "$tmp/a/contact-sheet.png"
expect_eq "$(find "$tmp/a" -name '*.tmp*' | wc -l | tr -d ' ')" 0 "no temporary file left"

catena run -q -o "$tmp/b" "$tmp/swing.json"
check "frames are the same bytes on a rerun" cmp -s "$tmp/a/frames/frame-000007.png" \
    "$tmp/b/frames/frame-000007.png"

# --- catena render from the finished run

catena render -q "$tmp/a" -o "$tmp/c"
expect_status 0 "render exits 0"
check "render draws the same frames as run" cmp -s "$tmp/a/frames/frame-000013.png" \
    "$tmp/c/frames/frame-000013.png"

catena render -q "$tmp/a" --fps 10 --size 200x100 --color-by speed --contact-sheet --level 9
expect_status 0 "render with options exits 0"
expect_eq "$(count_frames "$tmp/a")" 11 "--fps 10: 11 frames, the old ones removed"
expect_eq "$(png_size "$tmp/a/frames/frame-000010.png")" 200x100 "--size 200x100"
check "--contact-sheet writes contact-sheet.png" test -f "$tmp/a/contact-sheet.png"
expect_eq "$(png_size "$tmp/a/contact-sheet.png")" 200x85 \
    "a sheet of 11 frames: 4 columns of 45 x 23 px tiles, 3 rows, 4 px gaps"

catena render -q "$tmp/a" --every 15
expect_status 0 "render --every exits 0"
expect_eq "$(count_frames "$tmp/a")" 5 "--every 15 over 60 steps: steps 0, 15, 30, 45, 60"

catena render -q "$tmp/a" --set output.render.line_width=4 --set output.render.color_by=none
expect_status 0 "render --set output.render.* exits 0"

# --- catena run --render without output.render, and without a trajectory

sed -e 's/"render": { "fps": 20, "size": \[160, 120\] }/"render": { "every": 20 }/' \
    -e 's/"trajectory": \["csv"\]/"trajectory": []/' "$tmp/swing.json" >"$tmp/bare.json"
catena run -q -o "$tmp/d" "$tmp/bare.json"
expect_status 0 "a scenario without a trajectory renders"
check "rendering records trajectory.npy when no trajectory is asked for" \
    test -f "$tmp/d/trajectory.npy"
expect_eq "$(count_frames "$tmp/d")" 4 "every 20 over 60 steps: 4 frames"

sed -e 's/, "render": { "fps": 20, "size": \[160, 120\] }//' "$tmp/swing.json" >"$tmp/plain.json"
catena run -q -o "$tmp/e" "$tmp/plain.json"
check "no output.render, no --render: no frames" test ! -e "$tmp/e/frames"
catena run -q --render -o "$tmp/f" "$tmp/plain.json"
expect_status 0 "run --render exits 0"
expect_eq "$(count_frames "$tmp/f")" 31 "--render: the defaults, 30 fps"
expect_eq "$(png_size "$tmp/f/frames/frame-000000.png")" 800x600 "--render: 800x600"
catena run -q --render --set output.render.every=30 -o "$tmp/g" "$tmp/plain.json"
expect_eq "$(count_frames "$tmp/g")" 3 "--render with --set output.render.every=30"

# --- bad usage and bad options: exit 2, nothing drawn

catena render
expect_status 2 "render without RUN_DIR exits 2"
expect_err "catena: render: missing RUN_DIR" "missing RUN_DIR is reported"

catena render "$tmp/a" "$tmp/b"
expect_status 2 "render with two directories exits 2"
expect_err "unexpected argument" "the extra argument is reported"

catena render "$tmp/nowhere"
expect_status 2 "render of a missing directory exits 2"
expect_err "$tmp/nowhere/scenario.json: cannot read" "the missing scenario.json is named"

for bad in "--size 0x10" "--size 640" "--size 640x480x2" "--color-by strain" "--level 12" \
    "--fps 0" "--fps -1" "--every 0" "--set time.dt=1" "--set output.render" "--bogus"; do
    rm -rf "$tmp/h"
    catena render "$tmp/a" -o "$tmp/h" $bad
    expect_status 2 "render $bad exits 2"
    check "render $bad draws nothing" test ! -e "$tmp/h/frames"
done
catena render "$tmp/a" --size 0x10
expect_err "output.render.size[0]: must be at least 16 (got 0)" "--size 0x10 is explained"
catena render "$tmp/a" --size 640
expect_err "catena: --size: expected WIDTHxHEIGHT in pixels, got '640'" "--size 640 is explained"
catena render "$tmp/a" --color-by strain
expect_err 'catena: --color-by: unknown value "strain" (expected "stretch", "tension", "speed" or "none")' \
    "--color-by strain is explained, naming the option"
catena render "$tmp/a" --set time.dt=1
expect_err "only output.render settings can change once a run is done" "--set outside render"

mkdir -p "$tmp/i"
cp "$tmp/a/scenario.json" "$tmp/i/"
catena render "$tmp/i"
expect_status 2 "render of a run without a trajectory exits 2"
expect_err "no trajectory.npy, trajectory.csv or trajectory.json" "the missing trajectory is named"

finish
