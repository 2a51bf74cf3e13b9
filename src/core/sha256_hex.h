/* The SHA-256 of a text or a file in hexadecimal (nettle's sha2), as summary.json and sweep
 * run directories record which scenario produced them and the manifest of a run directory
 * which bytes each file holds. */
#ifndef CATENA_SHA256_HEX_H
#define CATENA_SHA256_HEX_H

#include <stddef.h>

/* 64 hexadecimal digits and a NUL. */
#define SHA256_HEX_SIZE 65

/* Writes the SHA-256 of text[0..len) into hex as lower-case hexadecimal. */
void sha256_hex(const char *text, size_t len, char hex[SHA256_HEX_SIZE]);

/* The SHA-256 of everything fd holds, from offset 0 to its end, and the number of bytes
 * (read with pread: fd's offset does not move). Returns 0 or an errno value. interruptible
 * = 1: EINTR as soon as a stop is requested (core/stop.h), so that a reader does not make
 * a signal wait for a large file; 0 for a writer that is committing what it has. */
int sha256_hex_fd(int fd, int interruptible, unsigned long long *size, char hex[SHA256_HEX_SIZE]);

#endif
