/* Did-you-mean hints: the edit distance between a word someone typed and the words that were
 * valid there (scenario keys and values, names in a scenario, commands and options), and the
 * rule for when a near miss is close enough to suggest. */
#ifndef CATENA_SPELL_H
#define CATENA_SPELL_H

#include <stddef.h>

/* Edit distance between a and b, ignoring ASCII case: insertions, deletions, substitutions and
 * swaps of two neighbouring characters count one each (the optimal string alignment
 * distance); (size_t)-1 for words longer than 64 bytes, which are never close. */
size_t spell_distance(const char *a, const char *b);

/* Whether word is a near miss of candidate worth a did-you-mean: at most 1 edit for a
 * candidate of up to 3 characters, 2 up to 6, 3 beyond. */
int spell_is_close(const char *word, const char *candidate);

/* The name closest to word among a NULL-terminated table whose rows are stride bytes apart and
 * begin with the name (a string array: stride sizeof(char *); a table of structs whose first
 * member is the name: the struct's size), when close enough for a hint; NULL otherwise. Ties go
 * to the earlier row. */
const char *spell_closest(const char *word, const char *const *names, size_t stride);

#endif
