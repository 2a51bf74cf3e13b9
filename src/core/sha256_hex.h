/* The SHA-256 of a text in hexadecimal (nettle's sha2), as summary.json and sweep run
 * directories record which scenario produced them. */
#ifndef CATENA_SHA256_HEX_H
#define CATENA_SHA256_HEX_H

#include <stddef.h>

/* 64 hexadecimal digits and a NUL. */
#define SHA256_HEX_SIZE 65

/* Writes the SHA-256 of text[0..len) into hex as lower-case hexadecimal. */
void sha256_hex(const char *text, size_t len, char hex[SHA256_HEX_SIZE]);

#endif
