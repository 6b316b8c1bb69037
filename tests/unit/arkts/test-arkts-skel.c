/* Unit tests of the arkts skeleton scanner (arkts-json-skel.c)
 *
 * The oracle is json-glib: a CPU profile loaded from json-glib's whole
 * tree (no scanner) must give the same events and the same skips as the
 * same text through the scanner, fed in slices of every size, whatever
 * the arrays hold (non-numbers, doubles, values past 32 bits, nesting,
 * newlines, arrays nobody reads).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "arkts-test-util.h"
#include "../../test-util.h"

static const char *const profiles[] = {
  /* the plain modern form */
  "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},"
  "\"children\":[2,3]},{\"id\":2,\"callFrame\":{\"functionName\":\"f\",\"url\":\"a.js\",\"lineNumber\":1,\"columnNumber\":2}},"
  "{\"id\":3,\"callFrame\":{\"functionName\":\"g\",\"url\":\"a.js\",\"lineNumber\":5,\"columnNumber\":0},\"children\":[]}],"
  "\"startTime\":100,\"endTime\":900,\"samples\":[2,3,3,2],\"timeDeltas\":[10,20,30,40]}",
  /* pretty-printed, keys in another order, an array nobody reads */
  "{\n  \"startTime\": 100,\n  \"samples\": [\n    2,\n    3\n  ],\n  \"x\": [ 0, 1,\n 2 ],\n  \"nodes\": [\n    {\"id\": 1,"
  " \"callFrame\": {\"functionName\": \"(root)\"}, \"children\": [\n 2 ]},\n    {\"id\": 2, \"callFrame\": "
  "{\"functionName\": \"f\"}, \"children\": [ 3 ]},\n    {\"id\": 3, \"callFrame\": {\"functionName\": \"h\"}}\n  ],\n"
  "  \"timeDeltas\": [ 5 , 7 ]\n}\n",
  /* elements that are not integers, doubles, values past 32 bits */
  "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2,null,\"3\",7e0]},"
  "{\"id\":2,\"callFrame\":{\"functionName\":\"f\"}},{\"id\":7,\"callFrame\":{\"functionName\":\"s\"}}],"
  "\"startTime\":1,\"samples\":[2,null,\"x\",{\"a\":[1,2]},[3],true,2.0,7e0,1e400,2,2,4294967298],"
  "\"timeDeltas\":[1,2,3,4,5,6,7,8,9,10,4294967296,-4294967296]}",
  /* the old form: absolute timestamps in µs since the epoch */
  "{\"head\":{\"functionName\":\"(root)\",\"id\":1,\"children\":[{\"functionName\":\"f\",\"id\":2,\"children\":[]}]},"
  "\"startTime\":1530000000.5,\"endTime\":1530000001,\"samples\":[2,2,1],"
  "\"timestamps\":[1530000000500000,1530000000600000,1530000000700000,1530000000900000]}",
  /* samples first, one empty array, a number array starting with a
   * non-number (left to json-glib) */
  "{\"samples\":[],\"timeDeltas\":[null,1,2],\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}]}",
};

typedef struct
{
  TraceStringPool *pool;
  ArktsReaderStats stats;
  ArktsEnv env;
  TraceBatch *events;
} Route;

static void
route_init (Route *route)
{
  memset (route, 0, sizeof *route);
  route->pool = trace_string_pool_new ();
  route->env.pool = route->pool;
  route->env.stats = &route->stats;
  route->env.location = "p.cpuprofile";
  route->env.pid = 10;
  route->env.tid = TRACE_ID_UNKNOWN;
  route->env.top_n = 10;
  route->events = trace_batch_new (route->pool, 0);
}

static void
route_clear (Route *route)
{
  for (guint i = 0; i < ARKTS_SKIP_N_REASONS; i++)
    {
      g_free (route->stats.skipped[i].first_where);
      g_free (route->stats.skipped[i].first_detail);
    }
  trace_batch_unref (route->events);
  trace_string_pool_unref (route->pool);
}

/* The events and the skips, as text. */
static char *
route_text (Route *route,
            JsonObject *profile,
            ArktsJsonSkel *skel)
{
  ArktsCpuProfile *cp = arkts_cpu_profile_load (&route->env, profile, skel, ARKTS_NO_POS);
  GString *text = g_string_new (NULL);
  TraceBatch *b = route->events;

  while (cp && !arkts_cpu_profile_emit (cp, b, G_MAXUINT))
    ;
  arkts_cpu_profile_free (cp);
  for (guint i = 0; i < b->n_events; i++)
    {
      const TraceEvent *ev = &b->events[i];
      const TraceArg *args = trace_batch_get_args (b, ev);

      g_string_append_printf (text, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                              trace_event_kind_to_string (ev->kind), ev->ts, ev->tid, trace_batch_get_string (b, ev->name),
                              ev->u.stack_node.id, ev->u.stack_node.parent_id);
      for (guint a = 0; a < ev->n_args; a++)
        g_string_append_printf (text, " %s=%" G_GINT64_FORMAT, trace_batch_get_string (b, args[a].key), args[a].v.i);
      g_string_append_c (text, '\n');
    }
  for (guint i = 0; i < ARKTS_SKIP_N_REASONS; i++)
    if (route->stats.skipped[i].count)
      g_string_append_printf (text, "skipped %s: %" G_GUINT64_FORMAT " (%s)\n", arkts_skip_reason_to_string (i),
                              route->stats.skipped[i].count, route->stats.skipped[i].first_detail);
  return g_string_free (text, FALSE);
}

static char *
through_json_glib (const char *doc)
{
  g_autoptr (JsonNode) root = arkts_test_parse_text (doc);
  Route route;
  char *text;

  route_init (&route);
  text = route_text (&route, json_node_get_object (root), NULL);
  route_clear (&route);
  return text;
}

static char *
through_skeleton (const char *doc,
                  gsize slice)
{
  ArktsJsonSkel *skel = arkts_json_skel_new (1024 * 1024, 1024);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  gsize len = strlen (doc), skeleton_len;
  const char *skeleton;
  Route route;
  char *text;

  for (gsize at = 0; at < len; at += slice)
    {
      g_assert_true (arkts_json_skel_feed (skel, doc + at, MIN (slice, len - at), &error));
      g_assert_no_error (error);
    }
  arkts_json_skel_finish (skel);
  skeleton = arkts_json_skel_get_text (skel, &skeleton_len);
  json_parser_load_from_data (parser, skeleton, (gssize) skeleton_len, &error);
  g_assert_no_error (error);
  route_init (&route);
  text = route_text (&route, json_node_get_object (json_parser_get_root (parser)), skel);
  route_clear (&route);
  arkts_json_skel_free (skel);
  return text;
}

static void
test_same_as_json_glib (gconstpointer data)
{
  const char *doc = data;
  g_autofree char *expected = through_json_glib (doc);

  g_test_message ("%s", expected);
  g_assert_cmpstr (expected, !=, "");
  for (gsize slice = 1; slice <= strlen (doc); slice = slice < 8 ? slice + 1 : slice * 3)
    {
      g_autofree char *got = through_skeleton (doc, slice);

      g_assert_cmpstr (got, ==, expected);
    }
}

/* Arrays nobody reads leave the skeleton as [] and keep nothing; the
 * numbers kept are bounded. */
static void
test_limits (void)
{
  ArktsJsonSkel *skel = arkts_json_skel_new (4096, 4);
  g_autoptr (GError) error = NULL;
  const char *text;
  gsize len;

  const char *start = "{\"x\":[1,2,3,4,5,6,7,8,9],\"samples\":[1,2,3,4";

  g_assert_true (arkts_json_skel_feed (skel, start, strlen (start), &error));
  text = arkts_json_skel_get_text (skel, &len);
  g_assert_cmpstr (text, ==, "{\"x\":[],\"samples\":\"\\u0001arkts-numbers:0\"");
  /* the fifth number kept is one too many; it ends at byte 45 */
  g_assert_false (arkts_json_skel_feed (skel, ",5]}", 4, &error));
  g_assert_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE);
  g_assert_cmpstr (error->message, ==, "byte offset 45: more than 4 numbers in the arrays of one document");
  g_clear_error (&error);
  arkts_json_skel_reset (skel);
  g_assert_false (arkts_json_skel_feed (skel, "{\"samples\":[1 2]}", 17, &error));
  g_assert_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT);
  g_assert_cmpstr (error->message, ==, "byte offset 14: a missing ',' in an array of numbers");
  arkts_json_skel_free (skel);
}

/* The skeleton is bounded by what json-glib's tree of it takes, counted
 * as it grows: `{}` is 3 bytes of text but an object of 294 bytes. */
static void
test_tree_cost (void)
{
  ArktsJsonSkel *skel = arkts_json_skel_new (4096, 4);
  g_autoptr (GError) error = NULL;
  const char *doc = "{\"nodes\":[{},{},{},{},{},{},{},{},{},{}]}";

  /* the 8th `{}`, at byte 31, passes 4096 bytes: its object's 320,
   * after 7 of 320 + 110 (the ',') and 800 for the start, with the text
   * counted twice */
  g_assert_false (arkts_json_skel_feed (skel, doc, strlen (doc), &error));
  g_assert_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE);
  g_assert_cmpstr (error->message, ==,
                   "byte offset 31: the JSON outside the number arrays (a node table and scalars) would take more than 0 MiB once read");
  arkts_json_skel_free (skel);
}

#define TREE_LIMIT (32 * 1024 * 1024)

static const char *const tree_shapes[] = {
  "{\"id\":2,\"callFrame\":{\"functionName\":\"f\",\"scriptId\":\"1\",\"url\":\"a.js\",\"lineNumber\":1,"
  "\"columnNumber\":2},\"hitCount\":0,\"children\":[3,4]}",
  "{}",
  "[]",
  "[[]]",
  "null",
  "1",
  "\"a\"",
  "{\"a\":1}",
  "{\"a\":{}}",
  "{\"a\":[]}",
  "{\"a\":{\"b\":{\"c\":\"d\"}}}",
  "[\"abcdefghijklmnopqrstuvwxyz\",\"0123456789\"]",
};

/* `{"nodes":[null,ITEM,ITEM,…` with as many items as the scanner takes
 * under TREE_LIMIT, closed (the null keeps an array of numbers in the
 * skeleton). */
static GString *
largest_document (const char *item)
{
  ArktsJsonSkel *skel = arkts_json_skel_new (TREE_LIMIT, 1u << 30);
  GString *doc = g_string_new ("{\"nodes\":[null,");
  g_autoptr (GError) error = NULL;
  gsize fed = 0, accepted_at = 0;

  while (error == NULL)
    {
      accepted_at = doc->len;
      g_string_append (doc, item);
      g_string_append_c (doc, ',');
      arkts_json_skel_feed (skel, doc->str + fed, doc->len - fed, &error);
      fed = doc->len;
    }
  g_assert_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE);
  /* room for the closing "]}": an item less */
  g_string_truncate (doc, accepted_at);
  while (doc->len > 0 && doc->str[doc->len - 1] != ',')
    g_string_truncate (doc, doc->len - 1);
  g_string_truncate (doc, doc->len - 1);
  g_string_append (doc, "]}");
  arkts_json_skel_free (skel);
  return doc;
}

/* The largest skeleton the scanner lets through is read by json-glib in
 * TREE_LIMIT of address space, whatever its shape: the scanner's cost is
 * not below what the tree takes. */
static void
test_tree_bounded (gconstpointer data)
{
  const char *item = data;

  if (g_test_subprocess ())
    {
      g_autoptr (GString) doc = largest_document (item);
      ArktsJsonSkel *skel = arkts_json_skel_new (TREE_LIMIT, 1u << 30);
      g_autoptr (JsonParser) parser = json_parser_new_immutable ();
      g_autoptr (GError) error = NULL;
      const char *skeleton;
      gsize len;

      g_assert_true (arkts_json_skel_feed (skel, doc->str, doc->len, &error));
      g_string_truncate (doc, 0);
      skeleton = arkts_json_skel_get_text (skel, &len);
      g_test_message ("%s: %" G_GSIZE_FORMAT " bytes of skeleton", item, len);
      test_limit_address_space (TREE_LIMIT);
      g_assert_true (json_parser_load_from_data (parser, skeleton, (gssize) len, &error));
      g_assert_no_error (error);
      arkts_json_skel_free (skel);
      return;
    }
#ifdef TEST_UNDER_ASAN
  g_test_skip ("AddressSanitizer cannot run under an address-space limit");
  return;
#endif
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autofree char *name = g_strdup_printf ("/arkts/skel/same-as-json-glib/%u", i);

      g_test_add_data_func (name, profiles[i], test_same_as_json_glib);
    }
  g_test_add_func ("/arkts/skel/limits", test_limits);
  g_test_add_func ("/arkts/skel/tree-cost", test_tree_cost);
  for (guint i = 0; i < G_N_ELEMENTS (tree_shapes); i++)
    {
      g_autofree char *name = g_strdup_printf ("/arkts/skel/tree-bounded/%u", i);

      g_test_add_data_func (name, tree_shapes[i], test_tree_bounded);
    }
  return g_test_run ();
}
