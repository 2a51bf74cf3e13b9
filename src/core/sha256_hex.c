/* SHA-256 in hexadecimal (see core/sha256_hex.h). */
#define _POSIX_C_SOURCE 200809L
#include "core/sha256_hex.h"

#include <errno.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/stop.h"

/* Bytes read at a time from a file: large enough that the system calls cost nothing next to
 * the hashing, small enough to stay in the cache. */
#define HASH_CHUNK (1 << 20)

static void digest_hex(struct sha256_ctx *ctx, char hex[SHA256_HEX_SIZE])
{
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

void sha256_hex(const char *text, size_t len, char hex[SHA256_HEX_SIZE])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, len, (const uint8_t *)text);
    digest_hex(&ctx, hex);
}

int sha256_hex_fd(int fd, int interruptible, unsigned long long *size, char hex[SHA256_HEX_SIZE])
{
    uint8_t *buf = malloc(HASH_CHUNK);
    if (!buf)
        return ENOMEM;
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    unsigned long long at = 0;
    int e = 0;
    for (;;) {
        if (interruptible && stop_requested()) {
            e = EINTR;
            break;
        }
        const ssize_t n = pread(fd, buf, HASH_CHUNK, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            e = n < 0 ? errno : 0;
            break;
        }
        sha256_update(&ctx, (size_t)n, buf);
        at += (unsigned long long)n;
    }
    free(buf);
    if (!e) {
        digest_hex(&ctx, hex);
        *size = at;
    }
    return e;
}
