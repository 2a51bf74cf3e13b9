#!/bin/sh
# src/core/fmt_pow10.h is what scripts/gen-pow10-table writes (the generator also checks the
# logarithm formulas core/fmt_double.c uses). Skipped without Python 3.
. "$top_srcdir/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: no python3"
    exit 77
fi
python3 "$top_srcdir/scripts/gen-pow10-table" >"$tmp/table.h" 2>"$tmp/err"
rc=$?
expect_eq "$rc" 0 "gen-pow10-table runs and checks its formulas"
check "src/core/fmt_pow10.h is the generator's output" cmp -s "$tmp/table.h" "$top_srcdir/src/core/fmt_pow10.h"

finish
