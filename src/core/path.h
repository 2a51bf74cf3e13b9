/* File names built from a directory and a name. */
#ifndef CATENA_PATH_H
#define CATENA_PATH_H

/* "A/B": one slash between them, none added when A already ends in one, and "B" alone when A
 * is empty. Malloc'd (the caller frees it); NULL when out of memory. */
char *path_join(const char *a, const char *b);

#endif
