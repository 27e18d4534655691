/* Unit tests of common/json: commas, escaping to valid UTF-8, numbers. */
#include "unit.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static void test_commas_and_nesting(void **state)
{
    (void)state;
    struct json j;
    json_init(&j);
    json_object_begin(&j);
    json_key(&j, "a");
    json_size(&j, 1);
    json_key(&j, "b");
    json_array_begin(&j);
    json_int(&j, -2);
    json_bool(&j, true);
    json_null(&j);
    json_object_begin(&j);
    json_object_end(&j);
    json_array_end(&j);
    json_key(&j, "c");
    json_raw(&j, "[1,2]", 5);
    json_object_end(&j);
    assert_false(json_failed(&j));
    assert_string_equal(j.text, "{\"a\":1,\"b\":[-2,true,null,{}],\"c\":[1,2]}");
    json_reset(&j);
    json_array_begin(&j);
    json_array_end(&j);
    assert_string_equal(j.text, "[]");
    json_free(&j);
}

static void expect_text(const char *in, const char *want)
{
    struct json j;
    json_init(&j);
    json_string(&j, in);
    assert_string_equal(j.text, want);
    json_free(&j);
}

static void test_escaping(void **state)
{
    (void)state;
    expect_text("plain", "\"plain\"");
    expect_text("say \"hi\" \\ there", "\"say \\\"hi\\\" \\\\ there\"");
    expect_text("tab\tnl\ncr\rbs\bff\f", "\"tab\\tnl\\ncr\\rbs\\bff\\f\"");
    expect_text("\x01\x1f", "\"\\u0001\\u001f\"");
    /* UTF-8 stays as it is: e acute, the euro sign, an emoji. */
    expect_text("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
    /* What is not UTF-8 becomes U+FFFD, one per bad byte: a lone
     * continuation byte, a cut sequence, an overlong '/', a surrogate. */
    expect_text("a\x80z", "\"a\xef\xbf\xbdz\"");
    expect_text("\xc3", "\"\xef\xbf\xbd\"");
    expect_text("\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"");
    expect_text("\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
    expect_text("\xff", "\"\xef\xbf\xbd\"");
    struct json j;
    json_init(&j);
    json_string_n(&j, "abcdef", 3);
    assert_string_equal(j.text, "\"abc\"");
    json_free(&j);
}

static void expect_number(double v, const char *want)
{
    struct json j;
    json_init(&j);
    json_double(&j, v);
    assert_string_equal(j.text, want);
    json_free(&j);
}

static void test_numbers(void **state)
{
    (void)state;
    expect_number(1.5, "1.5");
    expect_number(0.1, "0.1");
    expect_number(-3, "-3");
    expect_number(1e300, "1e+300");
    /* JSON has no NaN or infinity: null says there is no number. */
    expect_number(NAN, "null");
    expect_number(INFINITY, "null");
    expect_number(-INFINITY, "null");
    /* Every double reads back as itself. */
    const double hard[] = {0.1 + 0.2, 1.0 / 3.0, 2.2250738585072014e-308, 123456789.123456789};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) {
        struct json j;
        json_init(&j);
        json_double(&j, hard[i]);
        assert_true(strtod(j.text, NULL) == hard[i]);
        json_free(&j);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commas_and_nesting),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_numbers),
    };
    return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
