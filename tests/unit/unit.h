/* unit: what every cmocka unit test includes; fills gaps of older cmocka
 * releases (Debian 12 ships 1.1.5, which has no assert_double_equal). */
#ifndef COMMSWEEP_UNIT_H
#define COMMSWEEP_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#ifndef assert_double_equal
#define assert_double_equal(a, b, eps) unit_double_equal((a), (b), (eps), __FILE__, __LINE__)
static inline void unit_double_equal(double a, double b, double eps, const char *file, int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("%s:%d: %.17g != %.17g (tolerance %g)", file, line, a, b, eps);
}
#endif

#endif
