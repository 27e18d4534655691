/* cpm_registry: the models the tools know by name, and what their
 * predictors share; see cpm_model.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpm_hockney.h"
#include "cpm_lininterp.h"
#include "cpm_lmo.h"
#include "cpm_plogp.h"

static const struct cpm_model_kind *const kinds[] = {
    &cpm_hockney_kind, &cpm_lininterp_kind, &cpm_plogp_kind, &cpm_loggp_kind, &cpm_lmo_kind,
};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

const struct cpm_model_kind *cpm_model_kind_find(const char *name)
{
    for (size_t k = 0; k < NKINDS; k++)
        if (strcmp(kinds[k]->name, name) == 0)
            return kinds[k];
    return NULL;
}

const char *const *cpm_model_kind_names(bool estimated_only)
{
    static const char *all[NKINDS + 1], *estimated[NKINDS + 1];
    const char **names = estimated_only ? estimated : all;
    size_t count = 0;
    for (size_t k = 0; k < NKINDS; k++)
        if (!estimated_only || kinds[k]->estimate)
            names[count++] = kinds[k]->name;
    names[count] = NULL;
    return names;
}

int cpm_estimate_flags_check(const struct cpm_estimate_args *a, const char *kind_name,
                             bool takes_two_point, bool takes_homogeneous, char *err,
                             size_t errlen)
{
    const char *flag = a->two_point && !takes_two_point     ? "--two-point"
                       : a->homogeneous && !takes_homogeneous ? "--homogeneous"
                                                              : NULL;
    if (!flag)
        return 0;
    snprintf(err, errlen, "the %s model does not take %s", kind_name, flag);
    return -1;
}

double cpm_predict_p2p_int(void *self, int i, int j, int m)
{
    const struct cpm_predictor *p = self;
    return m < 0 ? NAN : p->p2p(p, i, j, (size_t)m);
}
