/* Test helpers (see testutil.h). */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sha256_hex.h"

struct model *tu_model_of(struct scenario *sc)
{
    if (!sc)
        return NULL;
    struct model *m = sc->model;
    sc->model = NULL; /* scenario_destroy frees the rest; destroying a NULL model is a no-op */
    scenario_destroy(sc);
    return m;
}

struct model *tu_chain(size_t n, vec3 a, vec3 b, double mass, int pin_first, int pin_last,
                       double dt, int iterations)
{
    struct model *m = model_create();
    if (!m)
        return NULL;
    m->dt = dt;
    m->steps = 1;
    m->iterations = iterations;
    for (size_t i = 0; i < n; i++) {
        double f = n > 1 ? (double)i / (double)(n - 1) : 0.0;
        vec3 x = v3_add(a, v3_scale(v3_sub(b, a), f));
        model_add_point(m, x, v3(0, 0, 0), mass / (double)n, 0.0, NULL);
    }
    for (size_t i = 0; i + 1 < n; i++)
        model_add_link(m, (uint32_t)i, (uint32_t)(i + 1), v3_dist(m->x0[i], m->x0[i + 1]));
    if (pin_first)
        model_add_pin(m, 0, m->x0[0]);
    if (pin_last && n > 1)
        model_add_pin(m, (uint32_t)(n - 1), m->x0[n - 1]);
    return m;
}

/* Appends a link of the given role between grid points a and b at their distance. */
static void cloth_link(struct model *m, uint32_t a, uint32_t b, enum link_role role)
{
    const long l = model_add_link(m, a, b, v3_dist(m->x0[a], m->x0[b]));
    if (l >= 0)
        m->links[l].role = (uint8_t)role;
}

struct scenario *tu_cloth(int n, double size, int dims)
{
    struct scenario *sc = scenario_create(NULL);
    if (!sc)
        return NULL;
    struct model *m = sc->model;
    const double h = size / (n - 1);
    m->dims = dims;
    m->dt = 1.0 / 120.0;
    m->steps = 1;
    sc->output.formats = FORMAT_NPY;
    const long body = model_add_body(m, "cloth", BODY_CLOTH);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const vec3 x = dims == 2 ? v3(i * h, -j * h, 0) : v3(i * h, 0, j * h);
            model_add_point(m, x, v3(0, 0, 0), 1.0 / ((double)n * n), 0.0, NULL);
        }
#define P(i, j) ((uint32_t)((j)*n + (i)))
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (i + 1 < n)
                cloth_link(m, P(i, j), P(i + 1, j), ROLE_STRUCTURAL);
            if (j + 1 < n)
                cloth_link(m, P(i, j), P(i, j + 1), ROLE_STRUCTURAL);
            if (i + 1 < n && j + 1 < n) {
                cloth_link(m, P(i, j), P(i + 1, j + 1), ROLE_SHEAR);
                cloth_link(m, P(i + 1, j), P(i, j + 1), ROLE_SHEAR);
                model_add_face(m, P(i, j), P(i + 1, j), P(i + 1, j + 1), (uint32_t)body);
                model_add_face(m, P(i, j), P(i + 1, j + 1), P(i, j + 1), (uint32_t)body);
            }
            if (i + 2 < n)
                cloth_link(m, P(i, j), P(i + 2, j), ROLE_BEND);
            if (j + 2 < n)
                cloth_link(m, P(i, j), P(i, j + 2), ROLE_BEND);
        }
    model_add_pin(m, P(0, 0), m->x0[P(0, 0)]);
    model_add_pin(m, P(n - 1, 0), m->x0[P(n - 1, 0)]);
#undef P
    if (body >= 0)
        m->bodies[body] = (struct body){.name = m->bodies[body].name,
                                        .type = BODY_CLOTH,
                                        .first_point = 0,
                                        .npoints = (uint32_t)m->npoints,
                                        .first_link = 0,
                                        .nlinks = (uint32_t)m->nlinks};
    return sc;
}

void tu_add_loaded_chain(struct model *c)
{
    for (int i = 0; i < 5; i++)
        model_add_point(c, v3(0, -0.25 * i, 0), v3(0, 0, 0), i == 4 ? 10.0 : 0.01, 0.0, NULL);
    for (uint32_t i = 0; i < 4; i++)
        model_add_link(c, i, i + 1, 0.25);
    model_add_pin(c, 0, c->x0[0]);
}

char *tu_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/catena-test.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpl))
        return NULL;
    return strdup(tmpl);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void tu_rmtree(const char *dir)
{
    if (dir)
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += r;
        if (cap - n - 1 == 0) {
            char *p = realloc(buf, cap *= 2);
            if (!p) {
                free(buf);
                buf = NULL;
            } else {
                buf = p;
            }
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *tu_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

unsigned char *tu_read_png(const char *dir, const char *name, int *w, int *h)
{
    char *path = tu_path(dir, name);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    unsigned char *buf = NULL;
    if (path && png_image_begin_read_from_file(&img, path)) {
        img.format = PNG_FORMAT_RGBA;
        buf = malloc(PNG_IMAGE_SIZE(img));
        if (buf && png_image_finish_read(&img, NULL, buf, 0, NULL)) {
            *w = (int)img.width;
            *h = (int)img.height;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    png_image_free(&img);
    free(path);
    return buf;
}

void tu_write_manifest(const char *dir, const char *status, const char *const *names, size_t n)
{
    char *path = tu_path(dir, "summary.json");
    FILE *fp = fopen(path, "w");
    if (!fp)
        abort();
    fprintf(fp,
            "{\"run_id\": \"0123456789abcdef0123456789abcdef\", \"status\": \"%s\", "
            "\"files\": [",
            status);
    for (size_t i = 0; i < n; i++) {
        char *file = tu_path(dir, names[i]), hex[SHA256_HEX_SIZE];
        unsigned long long size = 0;
        const int fd = open(file, O_RDONLY);
        if (fd < 0 || sha256_hex_fd(fd, 0, &size, hex) != 0)
            abort();
        close(fd);
        fprintf(fp, "%s{\"name\": \"%s\", \"size\": %llu, \"sha256\": \"%s\"}", i ? ", " : "",
                names[i], size, hex);
        free(file);
    }
    fputs("]}\n", fp);
    if (fclose(fp) != 0)
        abort();
    free(path);
}

void tu_bless_run(const char *dir)
{
    char *path = tu_path(dir, "summary.json"), *text = tu_read_file(path, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!root) {
        free(path);
        return;
    }
    cJSON_DeleteItemFromObject(root, "run_id");
    cJSON_DeleteItemFromObject(root, "files");
    cJSON_AddStringToObject(root, "run_id", "0123456789abcdef0123456789abcdef");
    cJSON *files = cJSON_AddArrayToObject(root, "files");
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char *file = tu_path(dir, e->d_name), hex[SHA256_HEX_SIZE];
        struct stat st;
        unsigned long long size = 0;
        if (e->d_name[0] != '.' && strcmp(e->d_name, "summary.json") != 0 &&
            lstat(file, &st) == 0 && S_ISREG(st.st_mode)) {
            const int fd = open(file, O_RDONLY);
            if (fd < 0 || sha256_hex_fd(fd, 0, &size, hex) != 0)
                abort();
            close(fd);
            cJSON *f = cJSON_CreateObject();
            cJSON_AddStringToObject(f, "name", e->d_name);
            cJSON_AddNumberToObject(f, "size", (double)size);
            cJSON_AddStringToObject(f, "sha256", hex);
            cJSON_AddItemToArray(files, f);
        }
        free(file);
    }
    if (d)
        closedir(d);
    char *out = cJSON_Print(root);
    FILE *fp = fopen(path, "w");
    if (!out || !fp || fputs(out, fp) < 0 || fclose(fp) != 0)
        abort();
    free(out);
    cJSON_Delete(root);
    free(path);
}
