/* cpm_api: the CPM manual's model names over libcpm; see cpm_api.h. */
#include "cpm_api.h"

#include <stdbool.h>

static char read_error[400];

const char *cpm_api_read_error(void) { return read_error; }

static void read_model(FILE *stream, const struct cpm_model_kind *kind, void **model)
{
    read_error[0] = '\0';
    if (!stream) {
        *model = NULL;
        snprintf(read_error, sizeof read_error, "no stream to read a %s model from",
                 kind->name);
        return;
    }
    cpm_model_read_stream(stream, kind, model, read_error, sizeof read_error);
}

#define CPM_API_DEFINE_FILE(X, KIND, FREE)                                                       \
    void X##_free(X##_model *model) { FREE(model); }                                            \
    void X##_read(FILE *stream, X##_model **model)                                               \
    {                                                                                            \
        void *m;                                                                                 \
        read_model(stream, &KIND, &m);                                                           \
        *model = m;                                                                              \
    }                                                                                            \
    void X##_write(FILE *stream, const X##_model *model)                                         \
    {                                                                                            \
        if (stream && model)                                                                     \
            cpm_model_write_stream(stream, &KIND, model);                                        \
    }
CPM_API_DEFINE_FILE(Hockney, cpm_hockney_kind, cpm_hockney_free)
CPM_API_DEFINE_FILE(LinInterp, cpm_lininterp_kind, cpm_lininterp_free)
CPM_API_DEFINE_FILE(PLogP, cpm_plogp_kind, cpm_plogp_free)
CPM_API_DEFINE_FILE(LMO, cpm_lmo_kind, cpm_lmo_free)

static bool processes_ok(int n) { return n >= 1 && n <= CPM_MAX_PROCESSES; }

Hockney_model *Hockney_alloc(int n) { return processes_ok(n) ? cpm_hockney_alloc(n) : NULL; }

LinInterp_model *LinInterp_alloc(int size, int num_points)
{
    if (!processes_ok(size) || num_points < 1 || num_points > CPM_MAX_POINTS)
        return NULL;
    return cpm_lininterp_alloc(size, (size_t)num_points);
}

PLogP_model *PLogP_alloc(int n) { return processes_ok(n) ? cpm_plogp_alloc(n, 1) : NULL; }

LMO_model *LMO_alloc(int n) { return processes_ok(n) ? cpm_lmo_alloc(n, false) : NULL; }
