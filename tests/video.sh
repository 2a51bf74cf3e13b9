#!/bin/sh
# Videos: `catena render RUN --video FILE` pipes the frames to ffmpeg (checked with ffprobe:
# codec, size, frame count) for .mp4, .webm and .gif, writes no frames/, pads odd sizes for
# 4:2:0; without ffmpeg it names the Debian package and exits 1; a failing ffmpeg leaves no
# file and exits 1; another extension is refused with exit 2 (tests/docs.sh runs the
# README's --video example). The ffprobe checks skip (exit 77) where ffmpeg is not
# installed, and fail instead with CATENA_REQUIRE_TEST_TOOLS=1, as CI (.ci/run) sets, which
# installs it.
. "$top_srcdir/tests/lib.sh"

cd "$tmp" || exit 99

# A 5-point rope swinging from a pin: 60 steps of 1/60 s, 1 s in all.
cat >swing.json <<'JSON'
{
  "catena": 1,
  "name": "swing",
  "time": { "dt": 0.016666666666666666, "steps": 60 },
  "bodies": [
    { "type": "rope", "name": "rope", "from": [0, 0], "to": [1, 0], "segments": 4,
      "mass": 1, "pins": ["first"] }
  ],
  "output": { "trajectory": ["npy"], "render": { "fps": 20, "size": [160, 120] } }
}
JSON
catena run -q swing.json -o run --format npy
rm -rf run/frames

# --- what needs no ffmpeg

catena render run --video swing.avi
expect_status 2 "another extension: exit 2"
expect_err "catena: swing.avi: --video: expected a file ending in .mp4, .webm or .gif" \
    "the message names the file and the extensions"

mkdir nothing
status=0
PATH=$tmp/nothing "$CATENA" render run --video swing.mp4 >out 2>err || status=$?
expect_eq "$status" 1 "no ffmpeg on PATH: exit 1"
check "the message names the Debian package" \
    grep -qF "catena: swing.mp4: --video needs ffmpeg, which is not on PATH: install the Debian package ffmpeg (apt-get install ffmpeg)" err
check "no ffmpeg: no video" test ! -e swing.mp4
check "no ffmpeg: no frames drawn" test ! -e run/frames

# An ffmpeg that fails (exit 3), and one that exits 0 without reading its input.
mkdir fake
printf '#!/bin/sh\nexit 3\n' >fake/ffmpeg
chmod +x fake/ffmpeg
status=0
PATH=$tmp/fake:$PATH "$CATENA" render run --video bad.mp4 >out 2>err || status=$?
expect_eq "$status" 1 "ffmpeg failing: exit 1"
check "the message gives ffmpeg's exit status" \
    grep -qF "catena: bad.mp4: ffmpeg failed with exit status 3" err
check "ffmpeg failing: no video, no temporary file" test -z "$(ls -A | grep bad.mp4)"
printf '#!/bin/sh\nexit 0\n' >fake/ffmpeg
status=0
PATH=$tmp/fake:$PATH "$CATENA" render run --video bad.mp4 >out 2>err || status=$?
expect_eq "$status" 1 "ffmpeg not reading its frames: exit 1"
check "the message says ffmpeg stopped reading" \
    grep -qF "catena: bad.mp4: ffmpeg stopped reading frames" err
check "no video from an ffmpeg that read nothing" test -z "$(ls -A | grep bad.mp4)"

if ! command -v ffmpeg >/dev/null 2>&1 || ! command -v ffprobe >/dev/null 2>&1; then
    if [ "${CATENA_REQUIRE_TEST_TOOLS:-0}" = 1 ]; then
        fail "ffmpeg and ffprobe are installed (CATENA_REQUIRE_TEST_TOOLS=1)"
    else
        echo "SKIP: ffmpeg or ffprobe not installed (Debian package ffmpeg)"
    fi
    finish_skip=1
fi

# probe FILE: "codec,width,height,frames" of its video stream, every frame decoded.
probe() {
    ffprobe -v error -count_frames -select_streams v:0 \
        -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$1"
}

if [ -z "${finish_skip:-}" ]; then
    # 1 s at 20 fps: frames at 0, 0.05, ... 1 s, 21 of them.
    catena render run --video swing.mp4
    expect_status 0 "--video swing.mp4 exits 0"
    expect_eq "$(probe swing.mp4)" "h264,160,120,21" "an H.264 video of 21 frames, 160x120"
    check "--video draws no PNG frames" test ! -e run/frames
    check "no temporary file left" test -z "$(ls -A | grep '\.tmp\.')"

    catena render run --video swing.webm --fps 10 --size 161x121
    expect_status 0 "--video swing.webm exits 0"
    expect_eq "$(probe swing.webm)" "vp9,162,122,11" \
        "a VP9 video at 10 fps: 11 frames, the odd size padded to even sides"

    catena render run --video swing.gif --every 6 --contact-sheet -o sheet
    expect_status 0 "--video swing.gif exits 0"
    expect_eq "$(probe swing.gif)" "gif,160,120,11" "a GIF of every 6th step: 11 frames"
    check "the contact sheet goes to -o DIR" test -f sheet/contact-sheet.png

fi

if [ -n "${finish_skip:-}" ] && [ "$failed" -eq 0 ]; then
    echo "$passed passed, $failed failed (the ffmpeg checks skipped)"
    exit 77
fi
finish
