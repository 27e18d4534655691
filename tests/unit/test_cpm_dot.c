/* Unit tests of the strict DOT reader and the hierarchy rules: good files
 * in the forms DOT allows (comments, '#' lines, quoting, chains, defaults,
 * several attribute lists) give the tree they describe, and every kind of
 * malformation, of syntax or of hierarchy, is refused with its line and
 * why. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_hier.h"

static void parse_ok(const char *text, struct cpm_hier *h)
{
    char err[500] = "";
    if (cpm_hier_parse(text, strlen(text), h, err, sizeof err) != 0)
        fail_msg("refused: %s", err);
}

/* The hosts of h in order, space separated. */
static void hosts_of(const struct cpm_hier *h, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < h->nleaves; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "",
                                 h->nodes[h->leaves[i]].model_data);
}

/* text (len bytes) must be refused at line with a message containing why. */
static void refused_n(const char *text, size_t len, int line, const char *why)
{
    struct cpm_hier h;
    char err[500] = "", want[40];
    if (cpm_hier_parse(text, len, &h, err, sizeof err) == 0)
        fail_msg("accepted, expected line %d: %s", line, why);
    snprintf(want, sizeof want, "line %d: ", line);
    if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, why))
        fail_msg("got \"%s\", expected \"%s...%s\"", err, want, why);
    assert_int_equal(h.nnodes, 0);
}
static void refused(const char *text, int line, const char *why)
{
    refused_n(text, strlen(text), line, why);
}

#define LEAF(id, host) "\"" id "\" [type=0, model_data=\"" host "\"];\n"
#define GROUP(id) "\"" id "\" [type=1, model_data=\"\"];\n"

static void test_plain_hierarchy(void **state)
{
    (void)state;
    struct cpm_hier h;
    parse_ok("digraph h {\n" GROUP("r") GROUP("g1") GROUP("g2") LEAF("a", "a.x") LEAF("b", "b.x")
                 LEAF("c", "c.y") "\"r\" -> \"g2\";\n\"r\" -> \"g1\";\n\"g1\" -> \"a\";\n"
                                  "\"g2\" -> \"c\";\n\"g1\" -> \"b\";\n}\n",
             &h);
    char hosts[200];
    hosts_of(&h, hosts, sizeof hosts);
    /* Children in the order of their edges: g2 before g1. */
    assert_string_equal(hosts, "c.y a.x b.x");
    assert_string_equal(h.nodes[h.root].name, "r");
    assert_int_equal(h.nodes[h.root].size, 3);
    assert_int_equal(h.nodes[h.leaves[1]].depth, 2);
    assert_int_equal(cpm_hier_find_host(&h, "b.x"), 2);
    assert_true(cpm_hier_find_host(&h, "d") == CPM_HIER_NONE);
    assert_int_equal(h.nodes[h.leaves[0]].line, 7);
    cpm_hier_free(&h);
}

/* Everything DOT allows that the reader takes. */
static void test_dot_forms(void **state)
{
    (void)state;
    struct cpm_hier h;
    parse_ok("# a header line, as the suite's output has\n"
             "  # indented too\n"
             "strict DiGraph \"the name\" { // a comment\n"
             "  rankdir = LR; node [shape=box] edge [color=red];\n"
             "  /* a comment\n over lines */ top [type=1 model_data=\"\"]\n"
             "  mid [type=\"1\"] [model_data=\"\"; label=\"say \\\"hi\\\"\"]\n"
             "  7 [type=0, model_data=\"seven.example\"];\n"
             "  n_2 [type=0, model_data=\"node\\\n2\"];\n"
             "  \"x\\\"y\" [type=0, model_data=hostx]\n"
             "  top -> mid -> 7 [weight=2]; mid -> n_2\n"
             "  top -> \"x\\\"y\"\n"
             "}\n",
             &h);
    char hosts[200];
    hosts_of(&h, hosts, sizeof hosts);
    assert_string_equal(hosts, "seven.example node2 hostx");
    assert_string_equal(h.nodes[h.leaves[2]].name, "x\"y");
    cpm_hier_free(&h);
}

static void put_line(const char *line, void *ctx)
{
    FILE *f = ctx;
    fprintf(f, "%s\n", line);
}

/* The seed's grouping, written and read back unchanged. */
static void test_group_round_trip(void **state)
{
    (void)state;
    const char *hosts[] = {"hcl01.ucd.ie", "csi1.ucd.ie", "hcl02.ucd.ie", "node1.g5k.fr",
                           "node2.g5k.fr"};
    struct cpm_hier h, back;
    cpm_hier_group(&h, hosts, 5, NULL, 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(cpm_hier_write(&h, put_line, f), 0);
    fclose(f);
    parse_ok(text, &back);
    char a[300], b[300];
    hosts_of(&h, a, sizeof a);
    hosts_of(&back, b, sizeof b);
    assert_string_equal(a, "hcl01.ucd.ie hcl02.ucd.ie csi1.ucd.ie node1.g5k.fr node2.g5k.fr");
    assert_string_equal(a, b);
    assert_int_equal(back.nnodes, h.nnodes);
    for (size_t k = 0; k < h.nleaves; k++)
        assert_string_equal(h.nodes[h.nodes[h.leaves[k]].parent].name,
                            back.nodes[back.nodes[back.leaves[k]].parent].name);
    free(text);
    cpm_hier_free(&h);
    cpm_hier_free(&back);
}

static void test_syntax_refused(void **state)
{
    (void)state;
    refused("", 1, "expected 'digraph', found 'the end of the file'");
    refused("graph g { a -- b }", 1, "undirected graph");
    refused("digraph g\n a [type=0]", 2, "expected '{'");
    refused("digraph g {\n" LEAF("a", "a"), 3, "ends before the closing '}'");
    refused("digraph g {\n" LEAF("a", "a") "}\n}", 4, "'}' after the closing '}'");
    refused("digraph g {\n\"a\" [type=0, model_data=\"a]\n}\n", 2, "quoted string that never ends");
    refused("digraph g {\n/* open\n\n" LEAF("a", "a") "}", 2, "comment '/*' that never ends");
    refused("digraph g {\n a [label=<b>x</b>] }", 2, "HTML strings");
    refused("digraph g {\n a [model_data=\"x\" + \"y\"] }", 2, "'+' (joining strings)");
    refused("digraph g {\n subgraph s { a } }", 2, "subgraphs are not supported");
    refused("digraph g {\n { a } }", 2, "subgraphs are not supported");
    refused("digraph g {\n a -> { b c } }", 2, "an edge to a subgraph");
    refused("digraph g {\n a:p1 -> b }", 2, "ports");
    refused("digraph g {\n a -- b }", 2, "undirected edge");
    refused("digraph g {\n a -> b -- c }", 2, "undirected edge");
    refused("digraph g {\n a [type] }", 2, "attribute 'type' of a node has no value");
    refused("digraph g {\n a [type=0, type=1] }", 2, "attribute 'type' of node \"a\" given twice");
    refused("digraph g {\n a [type=0]\n\n a [model_data=\"a\"] }", 4,
            "node \"a\" declared again (first on line 2)");
    refused("digraph g {\n node [type=0] }", 2, "type and model_data belong on each node");
    refused("digraph g {\n edge [model_data=x] }", 2, "type and model_data belong on each node");
    refused("digraph g {\n node type=0 }", 2, "'node' must be followed by '['");
    refused("digraph g {\n a @ b }", 2, "unexpected character '@'");
    refused("digraph g {\n a [x=\x01] }", 2, "unexpected byte 0x01");
    refused("digraph g {\n 2abc }", 2, "a number followed by 'a'");
    refused("digraph g {\n - }", 2, "unexpected character '-'");
    refused("digraph g {\n a;; }", 2, "expected a statement, found ';'");
    refused("digraph g {\n a -> ; }", 2, "expected a node after '->'");
    refused("digraph g {\n a [x=] }", 2, "expected a value, found ']'");
    refused("digraph g {\n a [=1] }", 2, "expected an attribute name");
    refused("digraph g {\n x = }", 2, "'x =' needs a value");
    refused("digraph g {\n digraph }", 2, "'digraph' inside the graph");
    refused_n("digraph g {\n a\0 }", 17, 2, "a NUL byte");
    refused_n("digraph g {\n \"a\0\" }", 18, 2, "a NUL byte");
    refused("digraph {\n\"\\\"", 2, "quoted string that never ends");

    size_t len = CPM_DOT_MAX_ID + 40;
    char *big = malloc(len + 1);
    assert_non_null(big);
    int n = snprintf(big, len, "digraph g {\n\"");
    memset(big + n, 'x', len - (size_t)n);
    big[len] = '\0';
    refused(big, 2, "an ID longer than 4096 bytes");
    free(big);
    char *huge = malloc(CPM_DOT_MAX_BYTES + 2);
    assert_non_null(huge);
    memset(huge, ' ', CPM_DOT_MAX_BYTES + 1);
    refused_n(huge, CPM_DOT_MAX_BYTES + 1, 1, "more than");
    free(huge);
}

static void test_hierarchy_refused(void **state)
{
    (void)state;
    refused("digraph g {\n}", 2, "the graph has no elements");
    refused("digraph g {\n" GROUP("r") "\"r\" -> \"a\";\n}", 3,
            "\"a\" is in an edge but never declared");
    refused("digraph g {\n a [model_data=\"a\"] }", 2, "\"a\" has no type");
    refused("digraph g {\n a [type=2, model_data=\"a\"] }", 2, "type is '2', not 0 (leaf) or 1");
    refused("digraph g {\n a [type=00, model_data=\"a\"] }", 2, "type is '00'");
    refused("digraph g {\n a [type=0] }", 2, "\"a\" has no model_data");
    refused("digraph g {\n a [type=0, model_data=\"\"] }", 2, "is not a host name: it is empty");
    refused("digraph g {\n a [type=0, model_data=\"a b\"] }", 2, "it holds a blank");
    refused("digraph g {\n a [type=0, model_data=\"a*\"] }", 2, "a quote, a backslash or '*'");
    refused("digraph g {\n" LEAF("a", "a") LEAF("b", "b") "a -> b\n}", 4,
            "leaf \"a\" (type 0) has a child \"b\"");
    refused("digraph g {\n" GROUP("r") LEAF("a", "a") GROUP("e") "r -> a\n}", 4,
            "\"e\" is not a leaf (type 1) but has no children");
    refused("digraph g {\n" GROUP("r") LEAF("a", "a") "r -> a\n\nr -> r }", 6,
            "a node cannot be its own parent");
    refused("digraph g {\n" GROUP("r") GROUP("s") LEAF("a", "a") "r -> a; r -> s\ns -> a }", 6,
            "\"a\" has a second parent \"s\" (the first is \"r\")");
    refused("digraph g {\n" GROUP("r") GROUP("s") LEAF("a", "a") LEAF("b", "b") "r -> a; s -> b\n}",
            3, "a second root \"s\": a hierarchy has one root, and \"r\" (line 2)");
    refused("digraph g {\n" GROUP("r") GROUP("s") LEAF("a", "a") "r -> s -> r\ns -> a }", 2,
            "no root: every element has a parent");
    refused("digraph g {\n" GROUP("r") LEAF("a", "a") GROUP("x") GROUP("y")
                LEAF("b", "b") "r -> a; x -> y; y -> x; y -> b }",
            4, "\"x\" is not below the root \"r\"");
    refused("digraph g {\n" GROUP("r") LEAF("a", "h.x") LEAF("b", "h.x") "r -> a; r -> b }", 4,
            "host \"h.x\" is the model_data of \"b\" and of \"a\" (line 3)");
}

/* Reading a file: the message names the file; a missing file is refused. */
static void test_read_file(void **state)
{
    (void)state;
    char path[] = "/tmp/test_cpm_dot.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("digraph g {\n" GROUP("r") "r -> a }\n", f);
    fclose(f);
    struct cpm_hier h;
    char err[600];
    assert_int_equal(cpm_hier_read_file(path, &h, err, sizeof err), -1);
    assert_non_null(strstr(err, "hierarchy file "));
    assert_non_null(strstr(err, ", line 3: \"a\" is in an edge"));
    remove(path);
    assert_int_equal(cpm_hier_read_file(path, &h, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open"));
}

/* Names a file cannot carry back unchanged are not written. */
static void test_quote(void **state)
{
    (void)state;
    char out[16];
    assert_int_equal(cpm_dot_quote("a\"b", out, sizeof out), 0);
    assert_string_equal(out, "\"a\\\"b\"");
    assert_int_equal(cpm_dot_quote("a\\b", out, sizeof out), -1);
    assert_int_equal(cpm_dot_quote("a\nb", out, sizeof out), -1);
    assert_int_equal(cpm_dot_quote("0123456789abcdef", out, sizeof out), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_hierarchy),
        cmocka_unit_test(test_dot_forms),
        cmocka_unit_test(test_group_round_trip),
        cmocka_unit_test(test_syntax_refused),
        cmocka_unit_test(test_hierarchy_refused),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_quote),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
