/* cpm_lmo_kind: the LMO model as the registry sees it (estimate, read,
 * write, predict, report), on top of the model (cpm_lmo.c) and its
 * estimation (cpm_lmo_estimate.c), which then need nothing of each other
 * but the model's allocation. */
#include "cpm_lmo.h"

#include <stdio.h>

static int check(const struct cpm_estimate_args *a, char *err, size_t errlen)
{
    if (cpm_estimate_flags_check(a, "LMO", false, true, err, errlen) != 0)
        return -1;
    if (a->msgset.max_size > 0)
        return 0;
    snprintf(err, errlen, "the LMO model needs a maximum message size above 0");
    return -1;
}

static int estimate(const struct cpm_estimate_args *a, void **model, char *err, size_t errlen)
{
    struct cpm_lmo *l;
    int rc = a->homogeneous ? cpm_lmo_estimate_homogeneous(a->comm, &a->precision, &a->msgset,
                                                           a->parallel, &l, err, errlen)
                            : cpm_lmo_estimate(a->comm, &a->precision, &a->msgset, a->parallel,
                                               &l, err, errlen);
    *model = l;
    return rc;
}

static void report(const void *m, const struct cpm_estimate_args *a, cpm_note_fn note, void *ctx)
{
    cpm_lmo_report(m, a->msgset.max_size, a->precision.eps, note, ctx);
}

static int read_any(struct cpm_reader *r, int n, void **m)
{
    return cpm_lmo_read(r, n, (struct cpm_lmo **)m);
}
static void write_any(FILE *f, const void *m) { cpm_lmo_write(f, m); }
static void free_any(void *m) { cpm_lmo_free(m); }
static const struct cpm_predictor *predictor_any(const void *m)
{
    return &((const struct cpm_lmo *)m)->predictor;
}
static double scatter(const void *m, int root, size_t size)
{
    return cpm_lmo_predict_scatter_flat(m, root, size);
}
static double gather(const void *m, int root, size_t size)
{
    return cpm_lmo_predict_gather_flat(m, root, size);
}

static const struct cpm_coll_prediction colls[] = {
    {"scatter_flat",
     "flat scatter: (n-1)(C_r+Mt_r) + max_i(L_ri+C_i+M(1/beta_ri+t_i)); from S on "
     "(not in the seed) sum_i M/beta_ri + max_i(L_ri+C_i+Mt_i) in place of the max",
     scatter},
    {"gather_flat",
     "flat gather: the scatter's max form below M1, its serialised form from M2 on, "
     "between them (not in the seed) rounds of pieces below M1",
     gather},
};

const struct cpm_model_kind cpm_lmo_kind = {
    .name = "LMO",
    .file_name = "LMO",
    .min_procs = 3,
    .check = check,
    .estimate = estimate,
    .read = read_any,
    .write = write_any,
    .destroy = free_any,
    .predictor = predictor_any,
    .report = report,
    .colls = colls,
    .ncolls = sizeof colls / sizeof colls[0],
};
