/* cpm_registry: the models the tools know by name; see cpm_model.h. */
#include <string.h>

#include "cpm_hockney.h"
#include "cpm_lininterp.h"
#include "cpm_lmo.h"
#include "cpm_plogp.h"

static const struct cpm_model_kind *const kinds[] = {
    &cpm_hockney_kind, &cpm_lininterp_kind, &cpm_plogp_kind, &cpm_loggp_kind, &cpm_lmo_kind,
};

const char *const cpm_model_kind_names[] = {"Hockney", "LinInterp", "PLogP", "LogGP", "LMO", NULL};

const struct cpm_model_kind *cpm_model_kind_find(const char *name)
{
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (strcmp(kinds[k]->name, name) == 0)
            return kinds[k];
    return NULL;
}
