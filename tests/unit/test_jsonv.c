/* Unit tests of common/jsonv: values, escapes, numbers, and the errors of
 * text that is not JSON, each with the byte where it went wrong. */
#include "unit.h"
#include <string.h>

#include "json.h"
#include "jsonv.h"

static int parse(const char *text, struct jsonv *v, char *err, size_t errlen)
{
    return jsonv_parse(text, strlen(text), v, err, errlen);
}

static void test_values_and_members(void **state)
{
    (void)state;
    struct jsonv v;
    char err[200];
    assert_int_equal(parse(" {\"a\": [1, -0.5e3, 0, true, false, null, {}, []],\n"
                           "  \"b\": \"x\", \"b\": \"last\", \"c\": 1E-7} ",
                           &v, err, sizeof err), 0);
    assert_int_equal(v.kind, JSONV_OBJECT);
    assert_int_equal(v.len, 4);
    const struct jsonv *a = jsonv_get(&v, "a");
    assert_non_null(a);
    assert_int_equal(a->kind, JSONV_ARRAY);
    assert_int_equal(a->len, 8);
    assert_double_equal(a->items[0].number, 1, 0);
    assert_double_equal(a->items[1].number, -500, 0);
    assert_string_equal(a->items[1].text, "-0.5e3"); /* the number's text as written */
    assert_int_equal(a->items[3].kind, JSONV_BOOL);
    assert_true(a->items[3].boolean);
    assert_false(a->items[4].boolean);
    assert_int_equal(a->items[5].kind, JSONV_NULL);
    assert_int_equal(a->items[6].kind, JSONV_OBJECT);
    assert_int_equal(a->items[7].kind, JSONV_ARRAY);
    assert_string_equal(jsonv_string(&v, "b"), "last"); /* the last of a repeated name */
    assert_double_equal(jsonv_get(&v, "c")->number, 1e-7, 0);
    assert_null(jsonv_get(&v, "d"));
    assert_null(jsonv_string(&v, "c"));    /* not a string */
    assert_null(jsonv_get(a, "a"));        /* not an object */
    jsonv_free(&v);
    assert_int_equal(v.len, 0);
}

static void test_string_escapes(void **state)
{
    (void)state;
    struct jsonv v;
    char err[200];
    assert_int_equal(parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00 \\udc00x\"",
                           &v, err, sizeof err), 0);
    assert_int_equal(v.kind, JSONV_STRING);
    /* é in two bytes, U+1F600 from its surrogate pair in four, a lone low
     * surrogate as U+FFFD */
    const char want[] = "q\" b\\ s/ \b\f\n\r\t \xc3\xa9 \xf0\x9f\x98\x80 \xef\xbf\xbdx";
    assert_int_equal(v.len, sizeof want - 1);
    assert_memory_equal(v.text, want, sizeof want);
    jsonv_free(&v);
    /* A NUL inside counts in len. */
    assert_int_equal(parse("\"a\\u0000b\"", &v, err, sizeof err), 0);
    assert_int_equal(v.len, 3);
    jsonv_free(&v);
}

/* What json.h writes, jsonv reads back: numbers to the last bit. */
static void test_reads_what_json_writes(void **state)
{
    (void)state;
    struct json j;
    json_init(&j);
    json_object_begin(&j);
    json_key(&j, "x");
    json_double(&j, 0.1 + 0.2);
    json_key(&j, "tab\there");
    json_string(&j, "line\nbreak");
    json_object_end(&j);
    struct jsonv v;
    char err[200];
    assert_int_equal(jsonv_parse(j.text, j.len, &v, err, sizeof err), 0);
    assert_true(jsonv_get(&v, "x")->number == 0.1 + 0.2);
    assert_string_equal(jsonv_string(&v, "tab\there"), "line\nbreak");
    jsonv_free(&v);
    json_free(&j);
}

static void expect_error(const char *text, const char *what)
{
    struct jsonv v;
    char err[200] = "";
    if (parse(text, &v, err, sizeof err) != -1)
        fail_msg("'%s' was taken for JSON", text);
    if (!strstr(err, what))
        fail_msg("'%s': message '%s' does not say '%s'", text, err, what);
    assert_int_equal(v.kind, JSONV_NULL); /* nothing left to free */
}

static void test_errors_say_where(void **state)
{
    (void)state;
    expect_error("", "unexpected end of the text at byte 1");
    expect_error("{} x", "text after the value at byte 4");
    expect_error("[1,]", "expected a value at byte 4");
    expect_error("[1 2]", "expected ',' or ']' at byte 4");
    expect_error("{\"a\" 1}", "expected ':' at byte 6");
    expect_error("{1: 2}", "expected a member name at byte 2");
    expect_error("01", "text after the value at byte 2");
    expect_error("1.", "expected a digit after '.'");
    expect_error("-", "expected a digit at byte 2");
    expect_error("1e+", "expected a digit in the exponent");
    expect_error("NaN", "expected a value at byte 1");
    expect_error("tru", "expected a value");
    expect_error("\"abc", "unterminated string");
    expect_error("\"a\tb\"", "control character in a string at byte 3");
    expect_error("\"\\q\"", "unknown escape");
    expect_error("\"\\u12g4\"", "expected a hex digit");
    expect_error("{\"a\": [1, {\"b\": \"x", "unterminated string");
}

static void test_depth_is_limited(void **state)
{
    (void)state;
    char deep[2 * JSONV_MAX_DEPTH + 4];
    size_t n = JSONV_MAX_DEPTH;
    memset(deep, '[', n);
    memset(deep + n, ']', n);
    deep[2 * n] = '\0';
    struct jsonv v;
    char err[200];
    assert_int_equal(parse(deep, &v, err, sizeof err), 0); /* the limit itself is fine */
    jsonv_free(&v);
    memset(deep, '[', n + 1);
    memset(deep + n + 1, ']', n + 1);
    deep[2 * n + 2] = '\0';
    expect_error(deep, "nested deeper than 64");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_members),
        cmocka_unit_test(test_string_escapes),
        cmocka_unit_test(test_reads_what_json_writes),
        cmocka_unit_test(test_errors_say_where),
        cmocka_unit_test(test_depth_is_limited),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
