/* tracepipe tests - control characters in every JSON the tools write
 *
 * JSON allows no raw control character inside a string. Each writer
 * must escape U+0001..U+001F in every field a trace can fill: json-sink
 * (metadata, process and thread names, slice names, categories, args
 * keys and values, counters), perfetto-sink's metadata written as JSON
 * text, trace-info --json and trace-inspect --json (file names). The
 * output must parse, and trace_processor (when $TRACE_PROCESSOR names
 * it) must read what we write.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

/* U+0001..U+001F as raw bytes, and as a JSON string's escapes */
static char *
controls_raw (void)
{
  char *s = g_malloc (32);

  for (int i = 1; i < 32; i++)
    s[i - 1] = (char) i;
  s[31] = '\0';
  return s;
}

static char *
controls_escaped (void)
{
  GString *s = g_string_new (NULL);

  for (int i = 1; i < 32; i++)
    g_string_append_printf (s, "\\u%04x", i);
  return g_string_free (s, FALSE);
}

/* @text is JSON a strict parser reads: no raw control byte but the
 * whitespace between tokens (json-glib's parser alone would accept a raw
 * U+001F inside a string), and json-glib parses it. */
static JsonNode *
parse_strict (const char *text,
              gsize len)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  for (gsize i = 0; i < len; i++)
    if ((guchar) text[i] < 0x20 && text[i] != '\n' && text[i] != '\r' && text[i] != '\t')
      g_error ("raw control byte 0x%02x at byte %" G_GSIZE_FORMAT " of: %s", text[i], i, text);
  json_parser_load_from_data (parser, text, len, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* A Chrome JSON trace with every control character in each field. */
static char *
write_input (const char *name)
{
  g_autofree char *c = controls_escaped ();
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), name, NULL);
  g_autofree char *text = g_strdup_printf (
      "{\"traceEvents\":["
      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"p%s\"}},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"t%s\"}},"
      "{\"ph\":\"X\",\"name\":\"n%s\",\"cat\":\"c%s\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":2,"
      "\"args\":{\"k%s\":\"v%s\"}},"
      "{\"ph\":\"C\",\"name\":\"ctr%s\",\"pid\":1,\"ts\":3,\"args\":{\"v%s\":4}}],"
      "\"metadata\":{\"s\":\"x%sy\",\"a\":[\"x%sy\"],\"o\":{\"k%s\":\"v%s\"}}}",
      c, c, c, c, c, c, c, c, c, c, c, c);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_steal_pointer (&path);
}

static const char *
trace_processor (void)
{
  const char *tp = g_getenv ("TRACE_PROCESSOR");

  return tp != NULL && g_file_test (tp, G_FILE_TEST_IS_EXECUTABLE) ? tp : NULL;
}

/* What trace_processor answers to @sql on @trace (it must read it). */
static char *
tp_query (const char *tp,
          const char *trace,
          const char *sql)
{
  g_autofree char *sql_path = g_build_filename (tools_test_scratch_dir (), "controls.sql", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status;
  const char *argv[] = { tp, "-q", sql_path, trace, NULL };

  g_assert_true (g_file_set_contents (sql_path, sql, -1, NULL));
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("trace_processor cannot read %s: %s", trace, err);
  g_assert_null (strstr (err, "error while parsing"));
  g_unlink (sql_path);
  return out;
}

static JsonObject *
find_event (JsonArray *events,
            const char *ph,
            const char *name)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (g_str_equal (json_object_get_string_member (e, "ph"), ph) &&
          g_str_equal (json_object_get_string_member (e, "name"), name))
        return e;
    }
  g_error ("no event ph=%s name=%s", ph, name);
  return NULL;
}

static const char *
arg (JsonObject *event,
     const char *key)
{
  return json_object_get_string_member (json_object_get_object_member (event, "args"), key);
}

static void
check_json_sink_output (const char *path)
{
  g_autofree char *c = controls_raw ();
  g_autofree char *text = NULL, *n = g_strconcat ("n", c, NULL), *k = g_strconcat ("k", c, NULL);
  g_autofree char *v = g_strconcat ("v", c, NULL), *ctr = g_strconcat ("ctr", c, NULL);
  g_autofree char *xy = g_strconcat ("x", c, "y", NULL);
  g_autoptr (JsonNode) root = NULL;
  JsonObject *meta, *slice;
  JsonArray *events;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  root = parse_strict (text, len);
  events = json_object_get_array_member (json_node_get_object (root), "traceEvents");
  g_assert_cmpstr (arg (find_event (events, "M", "process_name"), "name") + 1, ==, c);
  g_assert_cmpstr (arg (find_event (events, "M", "thread_name"), "name") + 1, ==, c);
  slice = find_event (events, "X", n);
  g_assert_cmpstr (json_object_get_string_member (slice, "cat") + 1, ==, c);
  g_assert_cmpstr (arg (slice, k), ==, v);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (find_event (events, "C", ctr), "args"), v), ==, 4);
  meta = json_object_get_object_member (json_node_get_object (root), "metadata");
  g_assert_cmpstr (json_object_get_string_member (meta, "s"), ==, xy);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (meta, "a"), 0), ==, xy);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (meta, "o"), k), ==, v);
}

/* json-sink, from a JSON trace and from the Perfetto trace made of it:
 * every field escaped; trace_processor reads the file (a raw U+001F in
 * the metadata made it refuse all of it). */
static void
test_json_sink (void)
{
  g_autofree char *in = NULL;
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "controls-out.json", NULL);
  g_autofree char *pf = g_build_filename (tools_test_scratch_dir (), "controls-out.pftrace", NULL);
  g_autofree char *again = g_build_filename (tools_test_scratch_dir (), "controls-again.json", NULL);
  const char *tp = trace_processor ();

  if (trace_element_factory_find ("json-sink") == NULL || trace_element_factory_find ("perfetto-sink") == NULL)
    {
      g_test_skip ("json or perfetto plugin is not built");
      return;
    }
  in = write_input ("controls.json");
  {
    g_autoptr (Run) r = RUN ("trace-convert", NULL, in, out);
    g_autoptr (Run) p = RUN ("trace-convert", NULL, in, pf);
    g_autoptr (Run) back = RUN ("trace-convert", NULL, pf, again);

    g_assert_cmpint (r->status, ==, 0);
    g_assert_cmpint (p->status, ==, 0);
    g_assert_cmpint (back->status, ==, 0);
  }
  check_json_sink_output (out);
  check_json_sink_output (again);
  if (tp != NULL)
    {
      g_autofree char *slices = tp_query (tp, out, "select count(*) as n from slice where name like 'n%';");
      /* perfetto-sink writes an object or array member as JSON text */
      g_autofree char *raw = tp_query (tp, pf, "select count(*) as n from metadata where name in ('cr-a', 'cr-o') "
                                               "and instr(str_value, char(31)) = 0 and str_value like '%\\u001f%';");

      g_assert_cmpstr (slices, ==, "\"n\"\n1\n");
      g_assert_cmpstr (raw, ==, "\"n\"\n2\n");
    }
  g_unlink (in);
  g_unlink (out);
  g_unlink (pf);
  g_unlink (again);
}

/* Whether table @table of trace-info's object @o lists @name. */
static gboolean
lists_name (JsonObject *o,
            const char *table,
            const char *name)
{
  JsonArray *top = json_object_get_array_member (json_object_get_object_member (o, table), "top");

  for (guint i = 0; i < json_array_get_length (top); i++)
    if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (top, i), "name"), name) == 0)
      return TRUE;
  return FALSE;
}

/* trace-info --json: the file's name and every name it lists. */
static void
test_info (void)
{
  g_autofree char *c = controls_raw ();
  g_autofree char *name = g_strconcat ("f", c, ".json", NULL);
  g_autofree char *in = NULL;
  g_autofree char *p = g_strconcat ("p", c, NULL), *t = g_strconcat ("t", c, NULL);
  g_autofree char *n = g_strconcat ("n", c, NULL), *ctr = g_strconcat ("ctr", c, " v", c, NULL);
  g_autoptr (Run) r = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o;

  if (trace_element_factory_find ("json-src") == NULL)
    {
      g_test_skip ("json-src is not built");
      return;
    }
  in = write_input (name);
  r = RUN ("trace-info", NULL, "--json", in);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (g_str_has_suffix (r->out, "}\n"));
  root = parse_strict (r->out, strlen (r->out));
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "file"), ==, in);
  g_assert_true (lists_name (o, "processes", p));
  g_assert_true (lists_name (o, "threads", t));
  g_assert_true (lists_name (o, "slice-names", n));
  g_assert_true (lists_name (o, "counters", ctr));
  g_unlink (in);
}

/* trace-inspect --json: a plugin's file name (here one that failed). */
static void
test_inspect (void)
{
  g_autofree char *c = controls_raw ();
  g_autofree char *base = g_strconcat ("plugins", c, NULL);
  g_autofree char *dir = g_build_filename (tools_test_scratch_dir (), base, NULL);
  g_autofree char *module = g_build_filename (dir, "libbroken." G_MODULE_SUFFIX, NULL);
  g_autofree char *path_var = g_strdup_printf ("TRACEPIPE_PLUGIN_PATH=%s", dir);
  g_autofree char *system_var = g_strdup_printf ("TRACEPIPE_PLUGIN_SYSTEM_PATH=%s", tools_test_empty_dir ());
  const char *env[] = { path_var, system_var, NULL };
  g_autoptr (Run) r = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonArray *failed;

  g_mkdir (dir, 0700);
  g_assert_true (g_file_set_contents (module, "not a shared library\n", -1, NULL));
  r = RUN ("trace-inspect", env, "--failed", "--json");
  g_assert_cmpint (r->status, ==, 0);
  root = parse_strict (r->out, strlen (r->out));
  failed = json_object_get_array_member (json_node_get_object (root), "failed");
  g_assert_cmpuint (json_array_get_length (failed), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (failed, 0), "filename"), ==, module);
  g_unlink (module);
  g_rmdir (dir);
}

void
add_controls_tests (void)
{
  g_test_add_func ("/tools/json-controls/json-sink", test_json_sink);
  g_test_add_func ("/tools/json-controls/info", test_info);
  g_test_add_func ("/tools/json-controls/inspect", test_inspect);
}
