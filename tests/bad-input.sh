#!/bin/sh
# Every tests/data/bad/NAME.json is refused by `catena validate` and `catena run` with
# exit status 2 and exactly the message stored in NAME.err, and run writes nothing.
# The commands run inside tests/data/bad so that messages name the bare file.
. "$top_srcdir/tests/lib.sh"

dir=$top_srcdir/tests/data/bad
n=0
for json in "$dir"/*.json; do
    [ -e "$json" ] || continue
    name=${json##*/}
    base=${name%.json}
    out=$tmp/out-$base
    n=$((n + 1))
    problems=
    for command in validate run; do
        status=0
        if [ "$command" = validate ]; then
            (cd "$dir" && "$CATENA" validate "$name") >"$tmp/out" 2>"$tmp/err" || status=$?
        else
            (cd "$dir" && "$CATENA" run "$name" -o "$out") >"$tmp/out" 2>"$tmp/err" || status=$?
        fi
        if [ "$status" -ne 2 ]; then
            problems="$problems; $command exits with $status, not 2"
        elif ! cmp -s "$tmp/err" "$dir/$base.err"; then
            problems="$problems; $command says '$(head -n 1 "$tmp/err")', not '$(head -n 1 "$dir/$base.err")'"
        fi
    done
    if [ -d "$out" ] && [ -n "$(ls -A "$out")" ]; then
        problems="$problems; run wrote into $out"
    fi
    if [ -z "$problems" ]; then
        pass "$name"
    else
        : >"$tmp/err" # the reasons say it all
        fail "$name:${problems#;}"
        rm -rf "$out"
    fi
done
check "tests/data/bad holds cases" test "$n" -gt 0

finish
