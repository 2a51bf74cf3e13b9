/* Did-you-mean distances (core/spell.h): edits counted as the hints need them (a swap of two
 * neighbours is one edit, case does not count), the closeness rule by the candidate's length,
 * and the closest row of a table. */
#include <check.h>
#include <stddef.h>

#include "core/spell.h"
#include "testutil_check.h"

START_TEST(test_distance)
{
    ck_assert_uint_eq(spell_distance("steps", "steps"), 0);
    ck_assert_uint_eq(spell_distance("", "run"), 3);
    ck_assert_uint_eq(spell_distance("stpes", "steps"), 1);      /* two letters swapped */
    ck_assert_uint_eq(spell_distance("rnu", "run"), 1);          /* swapped */
    ck_assert_uint_eq(spell_distance("valdate", "validate"), 1); /* one left out */
    ck_assert_uint_eq(spell_distance("Dt", "dt"), 0);            /* case does not count */
    ck_assert_uint_eq(spell_distance("kitten", "sitting"), 3);   /* Levenshtein's example */
    ck_assert_uint_eq(spell_distance("ca", "abc"), 3);           /* a swap is not edited further */
    char long_word[70];
    for (size_t i = 0; i < sizeof long_word - 1; i++)
        long_word[i] = 'a';
    long_word[sizeof long_word - 1] = '\0';
    ck_assert_uint_eq(spell_distance(long_word, "a"), (size_t)-1);
}
END_TEST

START_TEST(test_close)
{
    ck_assert(spell_is_close("rnu", "run")); /* 1 edit for 3 letters */
    ck_assert(!spell_is_close("rx", "run")); /* 2 edits for 3 letters: no */
    ck_assert(spell_is_close("iteratoins", "iterations"));
    ck_assert(!spell_is_close("zzzzzz", "steps"));
    static const char *const names[] = {"steps", "set", "every", NULL};
    ck_assert_str_eq(spell_closest("stpes", names, sizeof *names), "steps");
    ck_assert_str_eq(spell_closest("st", names, sizeof *names), "set"); /* the nearest */
    ck_assert_ptr_null(spell_closest("zzzzzz", names, sizeof *names));
    /* Rows of a struct whose first member is the name. */
    static const struct {
        const char *name;
        int other;
    } rows[] = {{"output", 1}, {"quiet", 2}, {NULL, 0}};
    ck_assert_str_eq(spell_closest("qiuet", &rows[0].name, sizeof *rows), "quiet");
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("spell");
    TCase *tc = tu_tcase(suite, "spell", NULL, NULL);
    tcase_add_test(tc, test_distance);
    tcase_add_test(tc, test_close);
    return tu_run(suite);
}
