/* cpm_text: what the CPM unit tests share to read model files from text
 * (fmemopen, so a text may hold NUL bytes): the reader's status, its
 * message and the model, and the checks of a refusal. */
#ifndef COMMSWEEP_TEST_CPM_TEXT_H
#define COMMSWEEP_TEST_CPM_TEXT_H

#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "../../cpm/lib/cpm_model.h"

/* Reads len bytes as a model of kind for processes (0: the file's count);
 * returns the status, the message in err and the model in *model (NULL
 * when refused). */
static inline int cpm_text_read(const struct cpm_model_kind *kind, const char *text, size_t len,
                                int processes, void **model, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, len, "r");
    assert_non_null(f);
    *model = NULL;
    err[0] = '\0';
    int rc = cpm_model_read_stream_n(f, kind, processes, model, err, errlen);
    fclose(f);
    if (rc != 0)
        assert_null(*model);
    return rc;
}

/* The same, freeing what was read: the status. */
static inline int cpm_text_check(const struct cpm_model_kind *kind, const char *text, size_t len,
                                 int processes, char *err, size_t errlen)
{
    void *m;
    int rc = cpm_text_read(kind, text, len, processes, &m, err, errlen);
    if (rc == 0)
        kind->destroy(m);
    return rc;
}

/* The text is refused with a message that mentions what. */
static inline void cpm_text_refused(const struct cpm_model_kind *kind, const char *text,
                                    const char *what)
{
    char err[400];
    assert_int_equal(cpm_text_check(kind, text, strlen(text), 0, err, sizeof err), -1);
    if (!strstr(err, what))
        fail_msg("%s: message '%s' does not mention '%s'", kind->name, err, what);
}

#endif
