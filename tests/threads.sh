#!/bin/sh
# Threads and kernels change how fast a run goes, never its bytes: shipped scenarios run
# with -t 3 and with the simple kernel write the same trajectory as the default (one thread,
# batched kernel), under every order; a cloth large enough for the team to share its links
# (64 x 64 points, 3 threads), and a rope cut by an event (a step after which the team's
# split no longer holds), reels, a pin and a drag (after which the batched kernel gathers the
# links again) included; teams of 2 and 3 on a cloth under each method and on a string with a
# moving pin, large enough for whole substeps as one job; events.csv too where a run has one.
# summary.json differs only in its timing.
. "$top_srcdir/tests/lib.sh"

s=$top_srcdir/scenarios
n=0
same() { # DESCRIPTION SCENARIO ARGS...: default run vs -t 3 vs the simple kernel
    what=$1
    file=$2
    shift 2
    n=$((n + 1))
    catena run "$file" -q -o "$tmp/a$n" --steps 40 "$@"
    expect_status 0 "$what: runs"
    for j in $jobs; do
        catena run "$file" -q -o "$tmp/b$n-$j" --steps 40 -t $j "$@"
        expect_status 0 "$what: runs with -t $j"
    done
    catena run "$file" -q -o "$tmp/c$n" --steps 40 --set solver.kernel=simple "$@"
    expect_status 0 "$what: runs with the simple kernel"
    for f in "$tmp/a$n"/trajectory.* "$tmp/a$n"/events.*; do
        [ -e "$f" ] || continue
        base=${f##*/}
        for j in $jobs; do
            check "$what: $base the same with -t $j" cmp -s "$f" "$tmp/b$n-$j/$base"
        done
        check "$what: $base the same with the simple kernel" cmp -s "$f" "$tmp/c$n/$base"
    done
}
jobs=3

for order in forward alternate colored; do
    same "cloth-curtain, $order" "$s/cloth-curtain.json" --set solver.order=$order
    same "64x64 cloth, $order" "$s/cloth-curtain.json" --set solver.order=$order \
        --set bodies.0.rows=64 --set bodies.0.cols=64 --steps 20
done
same "rope-cut, colored" "$s/rope-cut.json" --set solver.order=colored --steps 200
same "lamp-chain-breaks" "$s/lamp-chain-breaks.json"
same "grapple (reels, a pin), colored" "$s/grapple.json" --set solver.order=colored --steps 80
same "ragdoll-platforms (a drag), colored" "$s/ragdoll-platforms.json" --set solver.order=colored \
    --steps 280
same "xpbd-hanging-mass" "$s/xpbd-hanging-mass.json" --set solver.order=colored

# Teams of 2 and 3 that take whole substeps, points advanced and velocities updated band by
# band and links checked for breaks range by range: the cloth under each method, with breaking
# links (events.csv lists them in order), and a long string whose end pin moves.
jobs="2 3"
for method in verlet pbd xpbd; do
    same "64x64 cloth, colored, $method" "$s/cloth-curtain.json" --set solver.order=colored \
        --set solver.method=$method --set bodies.0.rows=64 --set bodies.0.cols=64 --steps 20
done
same "64x64 cloth, colored, breaking shear links" "$s/cloth-curtain.json" --set solver.order=colored \
    --set bodies.0.rows=64 --set bodies.0.cols=64 --set bodies.0.shear.break_stretch=1.001 --steps 20
same "standing-wave (a moving pin), 8000 segments" "$s/standing-wave.json" \
    --set solver.order=colored --set bodies.0.segments=8000 --steps 20

catena run "$s/hanging-chain.json" -q -o "$tmp/bad" -t 0
expect_status 2 "-t 0 is bad input"
expect_err "catena: --threads: must be at least 1 (got 0)" "-t 0 names the option and says what is valid"

finish
