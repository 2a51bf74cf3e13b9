#!/bin/sh
# The layers of src/ (src/LAYERS, checked by scripts/check-layers): the real tree has no
# include against them, and the checker catches each kind of wrong include in a small tree
# made here (a lower layer including a higher one, siblings including each other, a private
# subfolder reached from outside its owner, a header not named from src/, an unknown folder).
. "$top_srcdir/tests/lib.sh"

check_layers() {
    status=0
    sh "$top_srcdir/scripts/check-layers" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
}

check_layers "$top_srcdir/src"
expect_status 0 "src/ has no include against its layers"
if [ -s "$tmp/out" ]; then sed 's/^/    /' "$tmp/out"; fi

# A tree that keeps the rules, then one wrong include at a time.
t=$tmp/src
mkdir -p "$t/core" "$t/model" "$t/solver/batch" "$t/solver/direct" "$t/io"
cat >"$t/LAYERS" <<'LAYERS'
# level folder
0 core
1 model
2 solver
2 io
private solver/batch solver
private solver/direct solver
LAYERS
printf '#include "core/vec.h"\n' >"$t/model/model.h"
printf '#include "model/model.h"\n#include "solver/batch/batch.h"\n#include "config.h"\n' \
    >"$t/solver/solver.c"
printf '#include "solver/solver.h"\n' >"$t/solver/batch/batch.c"
printf '#include "solver/solver.h"\n' >"$t/solver/direct/direct.c"
printf '#include "model/model.h"\n' >"$t/io/traj.c"
: >"$t/core/vec.h"
printf '#include "solver/solver.h"\n#include "io/traj.h"\n' >"$t/main.c"
check_layers "$t"
expect_status 0 "a tree that keeps the layers passes"

wrong() { # wrong FILE INCLUDE MESSAGE DESCRIPTION: adds the include, expects MESSAGE, removes it
    cp "$t/$1" "$tmp/saved"
    printf '#include "%s"\n' "$2" >>"$t/$1"
    check_layers "$t"
    expect_status 1 "$4: exit status 1"
    if grep -qF -- "$1:" "$tmp/out" && grep -qF -- "$3" "$tmp/out"; then
        pass "$4: named with its file and line"
    else
        fail "$4: message (got: $(cat "$tmp/out"))"
    fi
    cp "$tmp/saved" "$t/$1"
}
wrong model/model.h solver/solver.h "goes against the layers: model/ (level 1)" \
    "a lower layer including a higher one"
wrong io/traj.c solver/state.h "goes against the layers: io/ (level 2)" "a sibling including a sibling"
wrong io/traj.c solver/batch/batch.h "is private to solver/" "a private subfolder from outside"
wrong solver/direct/direct.c solver/batch/batch.h "solver/direct/ is a sibling private folder" \
    "a private subfolder from its sibling"
wrong solver/solver.c state.h "is not named from src/" "a header not named from its folder"
wrong core/vec.h gfx/raster.h "folder gfx/ is not in LAYERS" "a folder missing from LAYERS"
check_layers "$t"
expect_status 0 "the tree passes again once the wrong include is gone"

finish
