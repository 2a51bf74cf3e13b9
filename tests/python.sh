#!/bin/sh
# The Python reader (python/catena) against runs that catena makes here: tests/python/
# test_catena.py, under a Python that has NumPy (Debian's /usr/bin/python3 first, since the
# python3 on PATH may be another without it). Skips (exit 77) where none has NumPy, and fails
# instead with CATENA_REQUIRE_TEST_TOOLS=1, as CI (.ci/run) sets, which installs
# python3-numpy.
. "$top_srcdir/tests/lib.sh"

python=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import numpy' >/dev/null 2>&1; then
        python=$p
        break
    fi
done
if [ -z "$python" ]; then
    if [ "${CATENA_REQUIRE_TEST_TOOLS:-0}" = 1 ]; then
        fail "a python3 with NumPy is installed (CATENA_REQUIRE_TEST_TOOLS=1)"
        finish
    fi
    echo "SKIP: no python3 with NumPy (Debian package python3-numpy)"
    exit 77
fi

version=$(sed -n 's/^AC_INIT(\[catena\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
CATENA_VERSION=$version TMPDIR=$tmp PYTHONDONTWRITEBYTECODE=1 \
    "$python" "$top_srcdir/tests/python/test_catena.py" -v 2>&1
