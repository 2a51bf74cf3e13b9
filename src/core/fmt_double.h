/* Number formatting for the writers: doubles as the shortest decimal that reads back to
 * the same double, integers without printf. Both write into a caller's buffer, always in
 * the C locale's form, and return the length written (a NUL follows). */
#ifndef CATENA_FMT_DOUBLE_H
#define CATENA_FMT_DOUBLE_H

#include <stddef.h>

/* Room fmt_double and fmt_long need, NUL included ("-2.2250738585072014e-308" is 24). */
#define FMT_DOUBLE_SIZE 32

/* Writes x with the fewest significant digits that strtod reads back as x, bit for bit,
 * and of the decimals that short the one nearest to x (the digits of Python's repr): "0",
 * "-0", "1.5", "0.1", "1e-300", "5e-324". Layout as
 * Python's repr without its ".0": fixed point for 1e-4 <= |x| < 1e16, otherwise
 * "d.ddde-XX". Non-finite values give "nan", "inf" and "-inf". */
size_t fmt_double(char *buf, double x);

/* Writes v in decimal. */
size_t fmt_long(char *buf, long v);

#endif
