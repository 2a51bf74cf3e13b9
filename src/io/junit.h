/* JUnit XML reports, for the test reporters of CI services (GitLab, Jenkins, GitHub
 * actions): one <testsuites> holding one <testsuite> of <testcase>s, each passed or carrying
 * a <failure> (the test ran and found a difference) or an <error> (it could not be judged).
 * The elements and attributes are those of the schema Jenkins's xunit plugin ships
 * (junit-10.xsd, which GitLab and the GitHub actions read too): name, classname, tests,
 * failures, errors, skipped, time (seconds, digits and up to three decimals).
 *
 * Glossary
 *   case     one <testcase>: a comparison, a scenario of a suite
 *   failure  the case ran and its result is wrong (a difference, a failed check)
 *   error    the case could not be judged (a file missing or unreadable)
 *
 * Any byte of any string may be written: text is UTF-8, escaped for XML, and what XML 1.0
 * cannot hold at all (control characters but tab, newline and carriage return; U+FFFE and
 * U+FFFF; bytes that are not UTF-8) is written as the four characters \xNN (\uFFFE, \uFFFF),
 * so that the file is always well-formed. */
#ifndef CATENA_JUNIT_H
#define CATENA_JUNIT_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

enum junit_outcome {
    JUNIT_PASSED,
    JUNIT_FAILED,
    JUNIT_ERROR,
};

struct junit_case {
    const char *name;      /* the test, e.g. a scenario's name in its suite */
    const char *classname; /* its group (reporters show it as the class) */
    double time;           /* wall-clock seconds it took; < 0 or NaN: not written */
    enum junit_outcome outcome;
    const char *type;    /* failed, error: a short kind ("trajectory", "checks"); NULL none */
    const char *message; /* failed, error: one line saying what is wrong */
    const char *text;    /* failed, error: the full report, several lines; NULL none */
    const char *output;  /* what the test wrote on stderr (<system-err>); NULL none */
};

struct junit_suite {
    const char *name; /* the suite: a folder of scenarios, "catena compare" */
    double time;      /* wall-clock seconds of the whole suite; < 0 or NaN: not written */
    const struct junit_case *cases;
    size_t ncases;
};

/* Writes the report to PATH, whole or not at all (core/outfile.h). Returns CATENA_OK, or
 * CATENA_EFAIL with err naming the file. */
int junit_write(const char *path, const struct junit_suite *suite, struct catena_error *err);

/* Writes s escaped as XML character data (attribute 0) or as an attribute value between
 * double quotes (attribute 1: tab, newline and carriage return as character references, so
 * that they survive attribute-value normalisation). NULL writes nothing. */
void junit_escape(FILE *out, const char *s, int attribute);

#endif
