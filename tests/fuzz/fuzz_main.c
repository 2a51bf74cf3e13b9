/* A main for the fuzz targets where libFuzzer is not linked in: under AFL++
 * (afl-clang-fast defines __AFL_FUZZ_TESTCASE_LEN) it runs in persistent mode on AFL's
 * shared-memory test cases; otherwise it runs each FILE argument (or stdin) once, which
 * replays a finding under any compiler, valgrind or a debugger. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h> /* read(), which AFL's test-case macro calls */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();
#else
/* Reads all of fp into a malloc'd buffer; NULL on failure. */
static uint8_t *slurp(FILE *fp, size_t *len)
{
    size_t cap = 1 << 16;
    uint8_t *buf = malloc(cap);
    *len = 0;
    while (buf) {
        *len += fread(buf + *len, 1, cap - *len, fp);
        if (*len < cap)
            return ferror(fp) ? (free(buf), NULL) : buf;
        uint8_t *b = realloc(buf, cap *= 2);
        if (!b)
            free(buf);
        buf = b;
    }
    return NULL;
}

static int run_stream(FILE *fp, const char *name)
{
    size_t len;
    uint8_t *buf = slurp(fp, &len);
    if (!buf) {
        fprintf(stderr, "fuzz: %s: cannot read\n", name);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}
#endif

int main(int argc, char **argv)
{
#ifdef __AFL_FUZZ_TESTCASE_LEN
    (void)argc;
    (void)argv;
    __AFL_INIT();
    const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(10000))
        LLVMFuzzerTestOneInput(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
    return 0;
#else
    int status = 0;
    if (argc < 2)
        return run_stream(stdin, "stdin");
    for (int i = 1; i < argc; i++) {
        FILE *fp = fopen(argv[i], "rb");
        if (!fp) {
            fprintf(stderr, "fuzz: %s: cannot open\n", argv[i]);
            status = 1;
            continue;
        }
        status |= run_stream(fp, argv[i]);
        fclose(fp);
    }
    return status;
#endif
}
