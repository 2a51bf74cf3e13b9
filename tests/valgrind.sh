#!/bin/sh
# catena under valgrind's memcheck: runs of shipped scenarios (a chain, with its catenary
# report and plot too; a rope cut over obstacles; a ragdoll on platforms) and of a 3D rope
# written in every format (then compare on its JSON trajectory and on a truncated one), a
# diverging run, an interrupted one, and validate on every bad input, each without a memory
# error or a leak of any kind. Skipped (exit 77) without valgrind, or for a build with
# AddressSanitizer, which valgrind cannot run.
. "$top_srcdir/tests/lib.sh"

if [ "${CATENA_SLOW_TESTS:-0}" != 1 ]; then
    echo "SKIP: a slow test: make check-slow runs it"
    exit 77
fi

if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind not found (install valgrind)"
    exit 77
fi
if ldd "$CATENA" 2>/dev/null | grep -q libasan; then
    echo "SKIP: $CATENA is built with AddressSanitizer"
    exit 77
fi

# vg DESCRIPTION EXPECTED-STATUS ARGUMENT...: runs catena under memcheck; passes when it
# exits with EXPECTED-STATUS and valgrind reports nothing.
vg() {
    what=$1
    want=$2
    shift 2
    status=0
    valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
        --errors-for-leak-kinds=all --log-file="$tmp/vg.log" \
        "$CATENA" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
    if [ -s "$tmp/vg.log" ]; then
        sed 's/^/    valgrind: /' "$tmp/vg.log" | head -n 40
        fail "$what: valgrind reports errors or leaks"
    elif [ "$status" -ne "$want" ]; then
        fail "$what (exit status $status, expected $want)"
    else
        pass "$what"
    fi
}

cat >"$tmp/rope3d.json" <<'JSON'
{
  "catena": 1,
  "name": "rope3d",
  "dimensions": 3,
  "time": { "dt": 0.01, "steps": 100, "substeps": 2 },
  "world": { "gravity": [0, -9.81, 0] },
  "points": [{ "name": "weight", "p": [1, -0.5, 0.5], "mass": 3 }],
  "bodies": [
    { "type": "rope", "name": "rope", "from": [0, 0, 0], "to": [1, 0, 1], "segments": 12,
      "length": 1.8, "mass": 1, "pins": ["first"], "break_stretch": 1.5 }
  ],
  "links": [{ "a": "rope.last", "b": "weight" }],
  "output": { "trajectory": ["csv", "json", "npy"], "every": 3 }
}
JSON

vg "run hanging-chain.json" 0 run -q --steps 300 -o "$tmp/a" "$top_srcdir/scenarios/hanging-chain.json"
vg "run rope-cut.json (events, obstacles)" 0 run -q --steps 300 -o "$tmp/b" \
    "$top_srcdir/scenarios/rope-cut.json"
vg "run ragdoll-platforms.json (ragdoll, platforms, drag)" 0 run -q --steps 200 -o "$tmp/g" \
    "$top_srcdir/scenarios/ragdoll-platforms.json"
vg "run hanging-chain.json with its catenary report and plot" 0 run -q --steps 300 \
    --report catenary --plot -o "$tmp/h" "$top_srcdir/scenarios/hanging-chain.json"
vg "run a 3D rope in every format" 0 run -q -o "$tmp/c" "$tmp/rope3d.json"
vg "compare its JSON trajectory with its CSV one" 0 compare "$tmp/c/trajectory.json" \
    "$tmp/c/trajectory.csv"
vg "compare two run directories (their manifests read and checked)" 0 compare "$tmp/c" "$tmp/c"
vg "render a run directory (render.json written)" 0 render -q --every 30 "$tmp/a"
vg "run again into it (the earlier run's files and frames removed)" 0 run -q --steps 30 \
    -o "$tmp/a" "$top_srcdir/scenarios/hanging-chain.json"
vg "compare a truncated JSON trajectory" 2 compare "$top_srcdir/tests/data/traj/truncated.json" \
    "$top_srcdir/tests/data/traj/small.json"
vg "a diverging run" 1 run -q --set world.gravity='[0,-1e14,0]' --set time.dt=1 -o "$tmp/d" \
    "$tmp/rope3d.json"
vg "validate on every bad input" 2 validate "$top_srcdir"/tests/data/bad/*.json
vg "run on a bad input" 2 run -o "$tmp/e" "$top_srcdir/tests/data/bad/ref-unknown-name.json"
vg "an output directory that cannot be made" 1 run -q -o /dev/null/out "$tmp/rope3d.json"

# Interrupted: a run far longer than the test, stopped by SIGTERM once it has started.
valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
    --errors-for-leak-kinds=all --log-file="$tmp/vg.log" \
    "$CATENA" run -q --steps 1000000000 --every 1000 -o "$tmp/f" "$tmp/rope3d.json" \
    >"$tmp/out" 2>"$tmp/err" &
pid=$!
tries=0
while [ ! -d "$tmp/f" ] && [ $tries -lt 300 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
sleep 1
kill -TERM $pid
status=0
wait $pid || status=$?
if [ -s "$tmp/vg.log" ]; then
    sed 's/^/    valgrind: /' "$tmp/vg.log" | head -n 40
    fail "an interrupted run: valgrind reports errors or leaks"
else
    expect_status 143 "an interrupted run"
fi

finish
