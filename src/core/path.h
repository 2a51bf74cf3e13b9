/* File names built from a directory and a name, and split back into them. */
#ifndef CATENA_PATH_H
#define CATENA_PATH_H

/* "A/B": one slash between them, none added when A already ends in one, and "B" alone when A
 * is empty. Malloc'd (the caller frees it); NULL when out of memory. */
char *path_join(const char *a, const char *b);

/* The directory of a file name: "A/B/c" gives "A/B", "c" gives ".", "/c" gives "/".
 * Malloc'd; NULL when out of memory. */
char *path_dir(const char *path);

/* The name after the last slash ("c" of "A/B/c"), inside path. */
const char *path_base(const char *path);

/* 1 when p names the root directory ("/", "//", "/tmp/..", a link to /), which no output
 * should land in. */
int path_is_root(const char *p);

#endif
