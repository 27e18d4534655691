/*
 * osu_fields: OMB's column headings as JSON fields. Every OSU-style driver
 * prints its table through osu.h (osu_print_columns*, osu_row_*); this
 * module names each heading's field and unit ("Avg Latency(us)" is
 * latency_us in us), declares the run's JSON table "osu" from the headings
 * of the table being printed, and keeps their order, so that a value a row
 * adds in text lands under its field in JSON. A heading it does not know
 * gets a name made from its words and the unit in its parentheses.
 */
#ifndef COMMSWEEP_OSU_FIELDS_H
#define COMMSWEEP_OSU_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#define OSU_FIELD_NAME_LEN 48
#define OSU_MAX_FIELDS 24

struct osu_field {
    char name[OSU_FIELD_NAME_LEN];
    char unit[16]; /* one of report.h's REPORT_UNIT_* */
};

void osu_field_of(const char *heading, struct osu_field *f);

/* The headings of the table about to be printed: value columns (-f ones
 * included), whether a Validation column follows, and the trailing columns
 * (-z, -D); sized: rows start with the message size. Declares the JSON
 * table "osu" (once). */
void osu_fields_declare(bool sized, const char *const *values, size_t nvalues, bool validation,
                        const char *const *trailing, size_t ntrailing);
/* The field of the i-th value / trailing value of a row; NULL past the end. */
const struct osu_field *osu_fields_value(size_t i);
const struct osu_field *osu_fields_trailing(size_t i);

/* The element type of the rows that follow (OMB's "# Datatype:" line): a
 * key of every JSON row. */
void osu_fields_datatype(const char *name);

#endif
