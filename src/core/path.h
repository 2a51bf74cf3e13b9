/* File names built from a directory and a name. */
#ifndef CATENA_PATH_H
#define CATENA_PATH_H

/* "A/B": one slash between them, none added when A already ends in one, and "B" alone when A
 * is empty. Malloc'd (the caller frees it); NULL when out of memory. */
char *path_join(const char *a, const char *b);

/* 1 when p names the root directory ("/", "//", "/tmp/..", a link to /), which no output
 * should land in. */
int path_is_root(const char *p);

#endif
