/* Memory as catena plans it: how much the machine has (the default limit a scenario's
 * estimated need is held to) and how sizes read in messages. */
#ifndef CATENA_MEMORY_H
#define CATENA_MEMORY_H

/* Bytes of physical memory (sysconf), or of the address-space limit (RLIMIT_AS) when that
 * is lower; 0 when neither is known. */
double memory_available(void);

/* bytes as "353 MiB" (three significant digits, binary units) into buf[32]; returns buf. */
char *memory_format(char buf[32], double bytes);

/* Parses SIZE as --max-memory takes it: a number of bytes with an optional K, M, G or T
 * (binary: 1K = 1024), e.g. "512M", "1.5G". 0, or -1 when it is not one (or not > 0). */
int memory_parse(const char *s, double *bytes);

#endif
