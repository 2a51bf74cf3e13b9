/* CSV tables (core/csv.h): quoted fields with commas, doubled quotes and line breaks, CRLF
 * line ends, numbers, and the messages for a ragged line (its line number counts the breaks
 * inside quotes), a quote left open and an empty file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "testutil.h"
#include "testutil_check.h"

static struct csv *read_text(const char *text, struct catena_error *err)
{
    char *path = tu_path(dir, "t.csv");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    struct csv *t = csv_read(path, err);
    free(path);
    return t;
}

START_TEST(test_fields)
{
    struct catena_error err;
    struct csv *t =
        read_text("a,b,name\r\n1,2.5,\"x=1,y=2\"\r\n-3,,\"say \"\"hi\"\"\nthere\"\n", &err);
    ck_assert_msg(t != NULL, "%s", err.msg);
    ck_assert_uint_eq(t->ncols, 3);
    ck_assert_uint_eq(t->nrows, 2);
    ck_assert_int_eq(csv_column(t, "name"), 2);
    ck_assert_int_eq(csv_column(t, "c"), -1);
    ck_assert_str_eq(csv_cell(t, 0, 2), "x=1,y=2");
    ck_assert_str_eq(csv_cell(t, 1, 2), "say \"hi\"\nthere");
    double v = 0;
    ck_assert_int_eq(csv_number(t, 0, 1, &v), 0);
    ck_assert_double_eq(v, 2.5);
    ck_assert_int_eq(csv_number(t, 1, 0, &v), 0);
    ck_assert_double_eq(v, -3);
    ck_assert_int_eq(csv_number(t, 1, 1, &v), -1); /* empty */
    ck_assert_int_eq(csv_number(t, 0, 2, &v), -1); /* text */
    csv_destroy(t);
}
END_TEST

START_TEST(test_errors)
{
    struct catena_error err;
    ck_assert_ptr_null(read_text("a,b\n\"1\n2\",3\n4\n", &err));
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "t.csv:4: 1 fields where the header has 2"));
    ck_assert_ptr_null(read_text("a,b\n1,\"2\n", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "t.csv:2: a quoted field is not closed"));
    ck_assert_ptr_null(read_text("", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "t.csv: empty, not even a header line"));
    ck_assert_ptr_null(csv_read("/nonexistent/t.csv", &err));
    ck_assert_int_eq(err.code, CATENA_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/t.csv: cannot read:"));
    csv_destroy(NULL);
}
END_TEST

static Suite *csv_suite(void)
{
    Suite *s = suite_create("csv");
    TCase *c = tu_tcase(s, "csv", tu_dir_setup, tu_dir_teardown);
    tcase_add_test(c, test_fields);
    tcase_add_test(c, test_errors);
    return s;
}

int main(void)
{
    return tu_run(csv_suite());
}
