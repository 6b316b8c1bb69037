/* tracepipe tests - inputs: pipes, files that are no trace, damaged traces, limits
 *
 * Every source reads standard input like a file; a file it cannot read
 * is an ERROR naming it (exit 1, no output file); a damaged file it
 * recognises is read to the end with a WARNING (exit 0); the documented
 * limits hold and say so.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "robustness.h"

/* ---------------------------------------------------------------- pipes */

typedef struct
{
  const char *source;
  const char *area, *name;
  const char *sink;
  gboolean gzip; /* send the file gzip'd through the pipe */
} PipeCase;

static const PipeCase pipe_cases[] = {
  { "ftrace-src", "ftrace", "catapult_decompressed_atrace_data.txt", "json-sink", FALSE },
  { "ftrace-src", "ftrace", "catapult_compressed_atrace_data.ctrace", "perfetto-sink", FALSE },
  { "ftrace-src", "ftrace", "catapult_trivial_systrace.html", "json-sink", TRUE },
  { "json-src", "json", "catapult_flow_simple.json", "perfetto-sink", FALSE },
  { "json-src", "json", "catapult_chromeos_system_trace.json", "json-sink", TRUE },
  { "perfetto-src", "perfetto", "sdk_style.pftrace", "json-sink", FALSE },
  { "arkts-src", "arkts", "node20_cpuprofile_cdp_result.json", "json-sink", FALSE },
  { "arkts-src", "arkts", "ohos_ts_ut_js_memory_snapshot_results.jsonl", "perfetto-sink", FALSE },
  { "arkts-src", "arkts", "node20_inspector.cpuprofile", "perfetto-sink", TRUE },
};

/* `cat FILE | trace-launch SRC location=- ! SINK location=-` writes the
 * same bytes as reading FILE by name; warnings name `<stdin>`. */
static void
test_pipe (gconstpointer data)
{
  const PipeCase *c = data;
  g_autofree char *path = rb_data_path (c->area, c->name);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (GBytes) bytes = rb_read_file (path);
  g_autoptr (GBytes) input = c->gzip ? rb_gzip (bytes) : g_bytes_ref (bytes);
  g_autoptr (RbResult) by_name = RB_RUN ("-q", c->source, location, "!", c->sink, "location=-");
  g_autoptr (RbResult) piped = rb_run (RB_SETUP_NONE, input,
                                       (const char *const[]){ "-q", c->source, "location=-", "!", c->sink, "location=-", NULL });
  g_autoptr (GString) err = g_string_new (by_name->err);

  g_assert_cmpint (by_name->status, ==, 0);
  g_assert_cmpint (piped->status, ==, 0);
  g_assert_cmpuint (by_name->out_len, >, 100);
  g_assert_cmpuint (piped->out_len, ==, by_name->out_len);
  g_assert_true (memcmp (by_name->out, piped->out, by_name->out_len) == 0);
  g_string_replace (err, path, "<stdin>", 0);
  g_assert_cmpstr (piped->err, ==, err->str);
}

/* `cat FILE | trace-launch auto-src ! SINK location=-`: detection reads
 * the start of the pipe and hands those bytes to the source it makes,
 * so the output is the very one of SRC reading FILE by name, gzip too. */
static void
test_pipe_auto_src (gconstpointer data)
{
  const PipeCase *c = data;
  g_autofree char *path = rb_data_path (c->area, c->name);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (GBytes) bytes = rb_read_file (path);
  g_autoptr (GBytes) input = c->gzip ? rb_gzip (bytes) : g_bytes_ref (bytes);
  g_autoptr (RbResult) by_name = RB_RUN ("-q", c->source, location, "!", c->sink, "location=-");
  g_autoptr (RbResult) piped =
      rb_run (RB_SETUP_NONE, input, (const char *const[]){ "-q", "auto-src", "!", c->sink, "location=-", NULL });

  g_assert_cmpint (by_name->status, ==, 0);
  g_assert_cmpint (piped->status, ==, 0);
  g_assert_cmpuint (by_name->out_len, >, 100);
  g_assert_cmpuint (piped->out_len, ==, by_name->out_len);
  g_assert_true (memcmp (by_name->out, piped->out, by_name->out_len) == 0);
}

/* A UTF-16 capture (a Windows shell redirecting `adb shell atrace`)
 * larger than the reader's first look (64 KiB) reads exactly like the
 * same text in UTF-8, little- and big-endian. */
static void
test_utf16 (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *plain = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  g_autofree char *plain_location = g_strdup_printf ("location=%s", plain);
  g_autoptr (GBytes) text = rb_read_file (plain);
  g_autoptr (RbResult) expected = RB_RUN ("-q", "ftrace-src", plain_location, "!", "json-sink", "location=-");

  g_assert_cmpint (expected->status, ==, 0);
  for (guint be = 0; be < 2; be++)
    {
      g_autofree char *path = g_build_filename (dir, be ? "be.txt" : "le.txt", NULL);
      g_autofree char *location = g_strdup_printf ("location=%s", path);
      g_autoptr (GError) error = NULL;
      gsize len = 0;
      g_autofree char *utf16 = g_convert (g_bytes_get_data (text, NULL), g_bytes_get_size (text),
                                          be ? "UTF-16BE" : "UTF-16LE", "UTF-8", NULL, &len, &error);
      g_autoptr (GString) file = g_string_new_len (be ? "\xfe\xff" : "\xff\xfe", 2);
      g_autoptr (RbResult) r = NULL;

      g_assert_no_error (error);
      g_string_append_len (file, utf16, len);
      g_assert_cmpuint (file->len, >, 64 * 1024);
      rb_write_file (path, file->str, file->len);
      r = RB_RUN ("-q", "ftrace-src", location, "!", "json-sink", "location=-");
      g_assert_cmpint (r->status, ==, 0);
      rb_assert_messages (r->err, "");
      g_assert_true (strcmp (r->out, expected->out) == 0);
    }
  rb_scratch_cleanup (dir);
}

/* ------------------------------------------------------------ bad inputs */

typedef enum
{
  BAD_EMPTY,
  BAD_PNG,
  BAD_RANDOM,
  BAD_CUT_GZIP,
} BadKind;

static const char *const bad_names[] = { "empty", "png", "random", "cut-gzip" };

typedef struct
{
  const char *source;
  BadKind kind;
  /* after "ERROR: from /pipeline0/SRC0: PATH: "; NULL: any text (a cut
   * gzip file is read up to the cut, with a WARNING, see test-gzip.c: only
   * a format that needs its whole document, as a heap profile, fails, with
   * its parser's message) */
  const char *message;
} BadCase;

/* The sources auto-src names: tracecmd-src when libtracecmd was found. */
#ifdef HAVE_TRACECMD_SRC
#define FILE_SOURCES "arkts-src, ftrace-src, htrace-src, json-src, perfetto-src, tracecmd-src"
#else
#define FILE_SOURCES "arkts-src, ftrace-src, htrace-src, json-src, perfetto-src"
#endif

/* The messages are those the formats' documents give. */
static const BadCase bad_cases[] = {
  { "ftrace-src", BAD_EMPTY, "empty file" },
  { "ftrace-src", BAD_PNG, "not an ftrace, atrace, systrace or RheaTrace file: found a PNG image" },
  { "ftrace-src", BAD_RANDOM, "not an ftrace, atrace, systrace or RheaTrace file: found binary data" },
  { "json-src", BAD_EMPTY, "byte 0: the input is empty" },
  { "json-src", BAD_PNG, "byte 0: not a JSON trace: it starts with byte 0x89, not '[' or '{'" },
  { "json-src", BAD_RANDOM, "byte 0: not a JSON trace: it starts with byte 0xfa, not '[' or '{'" },
  { "perfetto-src", BAD_EMPTY, "the file is empty" },
  { "perfetto-src", BAD_PNG, "byte offset 0: not a Perfetto protobuf trace" },
  { "perfetto-src", BAD_RANDOM, "byte offset 0: not a Perfetto protobuf trace" },
  { "arkts-src", BAD_EMPTY, "the input is empty" },
  { "arkts-src", BAD_PNG, "not ArkTS/V8 profiler data: found binary data (starting 89 50 4e 47 0d 0a 1a 0a)" },
  { "arkts-src", BAD_RANDOM, "not ArkTS/V8 profiler data: found binary data (starting fa 00 01 02 03 04 05 06)" },
  { "arkts-src", BAD_CUT_GZIP, NULL },
  { "auto-src", BAD_EMPTY, "the file is empty" },
  { "auto-src", BAD_PNG, "no plugin recognises this format; name the source that reads it: " FILE_SOURCES },
  { "auto-src", BAD_RANDOM, "no plugin recognises this format; name the source that reads it: " FILE_SOURCES },
};

/* The first half of a gzip'd file of the source's own format. */
static GBytes *
cut_gzip (const char *source)
{
  g_autofree char *path = NULL;
  g_autoptr (GBytes) plain = NULL;
  g_autoptr (GBytes) gz = NULL;

  if (strcmp (source, "perfetto-src") == 0)
    path = rb_data_path ("perfetto", "sdk_style.pftrace");
  else if (strcmp (source, "arkts-src") == 0)
    path = rb_data_path ("arkts", "speedscope_chrome69_Heap.heapprofile");
  else
    path = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  plain = rb_read_file (path);
  gz = rb_gzip (plain);
  return g_bytes_new_from_bytes (gz, 0, g_bytes_get_size (gz) / 2);
}

static GBytes *
bad_bytes (const BadCase *c)
{
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
  guint8 *random;

  switch (c->kind)
    {
    case BAD_EMPTY:
      return g_bytes_new_static ("", 0);
    case BAD_PNG:
      return g_bytes_new_static (png, sizeof png);
    case BAD_RANDOM:
      /* 4 KiB of every byte value in turn after 0xfa: an eighth are
       * control characters, half are not ASCII */
      random = g_malloc (4096);
      random[0] = 0xfa;
      for (guint i = 1; i < 4096; i++)
        random[i] = (guint8) (i - 1);
      return g_bytes_new_take (random, 4096);
    case BAD_CUT_GZIP:
    default:
      return cut_gzip (c->source);
    }
}

static void
test_bad_input (gconstpointer data)
{
  const BadCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "input", NULL);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);
  g_autofree char *prefix = g_strdup_printf ("ERROR: from /pipeline0/%s0: %s: ", c->source, path);
  g_autofree char *listing = NULL;
  g_autoptr (GBytes) bytes = bad_bytes (c);
  g_autoptr (RbResult) r = NULL;

  rb_write_file (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  r = RB_RUN ("-q", c->source, location, "!", "json-sink", out_location);
  g_assert_cmpint (r->status, ==, 1);
  if (c->message)
    {
      g_autofree char *expected = g_strdup_printf ("%s%s\n", prefix, c->message);

      rb_assert_messages (r->err, expected);
    }
  else
    {
      /* auto-src's inner element reports for it; a cut gzip file is
       * first a WARNING saying where the data ends */
      const char *error_line = strstr (r->err, prefix);

      g_assert_nonnull (error_line);
      g_assert_cmpuint (strlen (error_line), >, strlen (prefix) + 1);
      if (c->kind == BAD_CUT_GZIP)
        g_assert_nonnull (strstr (r->err, ": the compressed data ends early at byte "));
    }
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "input");
  rb_scratch_cleanup (dir);
}

/* ------------------------------------------------------- damaged inputs */

typedef struct
{
  const char *source;
  char *path;    /* the damaged file */
  char *clean;   /* the same without the damage, or NULL */
  char *warning; /* the whole stderr */
} Damaged;

static void
damaged_free (Damaged *d)
{
  g_free (d->path);
  g_free (d->clean);
  g_free (d->warning);
}

/* A garbage line inserted as line 3 of a corpus file. */
static void
damage_ftrace (const char *dir,
               Damaged *d)
{
  g_autoptr (GBytes) clean = NULL;
  g_autoptr (GString) s = NULL;
  const char *text, *nl;

  d->source = "ftrace-src";
  d->clean = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  d->path = g_build_filename (dir, "damaged.txt", NULL);
  clean = rb_read_file (d->clean);
  text = g_bytes_get_data (clean, NULL);
  nl = strchr (strchr (text, '\n') + 1, '\n') + 1;
  s = g_string_new_len (text, nl - text);
  g_string_append (s, "this line is no trace line\n");
  g_string_append_len (s, nl, g_bytes_get_size (clean) - (nl - text));
  rb_write_file (d->path, s->str, s->len);
  d->warning = g_strdup_printf ("WARNING: from /pipeline0/ftrace-src0: %s: 1 unparsable lines (line 3)\n", d->path);
}

/* A corpus file that ends in the middle of an event (json.md's example). */
static void
damage_json (const char *dir,
             Damaged *d)
{
  d->source = "json-src";
  d->path = rb_data_path ("json", "speedscope_simple-partial.json");
  d->warning = g_strdup_printf ("WARNING: from /pipeline0/json-src0: %s: skipped 2: 1 truncated (at byte 419), "
                                "1 bad duration (at byte 226)\n",
                                d->path);
}

/* Protobuf records are tag 0x0a, a varint length, the packet: the offset
 * of the last record, found by walking them. */
static gsize
last_record_offset (const guint8 *p,
                    gsize len)
{
  gsize pos = 0, last = 0;

  while (pos < len)
    {
      guint64 n = 0;
      guint shift = 0;
      gsize q = pos + 1;

      g_assert_cmpuint (p[pos], ==, 0x0a);
      while (p[q] & 0x80)
        n |= (guint64) (p[q++] & 0x7f) << shift, shift += 7;
      n |= (guint64) p[q++] << shift;
      last = pos;
      pos = q + n;
    }
  g_assert_cmpuint (pos, ==, len);
  return last;
}

/* A Perfetto trace (a corpus file converted here) cut 3 bytes before
 * its end: everything but the last packet is read. */
static void
damage_perfetto (const char *dir,
                 Damaged *d)
{
  g_autofree char *text = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  g_autofree char *whole_path = g_build_filename (dir, "whole.pftrace", NULL);
  g_autofree char *in = g_strdup_printf ("location=%s", text);
  g_autofree char *out = g_strdup_printf ("location=%s", whole_path);
  g_autoptr (RbResult) r = RB_RUN ("-q", "ftrace-src", in, "!", "perfetto-sink", out);
  g_autoptr (GBytes) whole = NULL;
  gsize len, last;
  const guint8 *p;

  g_assert_cmpint (r->status, ==, 0);
  d->source = "perfetto-src";
  d->path = g_build_filename (dir, "cut.pftrace", NULL);
  whole = rb_read_file (whole_path);
  p = g_bytes_get_data (whole, &len);
  last = last_record_offset (p, len);
  rb_write_file (d->path, p, len - 3);
  d->warning = g_strdup_printf ("WARNING: from /pipeline0/perfetto-src0: %s: the last packet is cut off at byte "
                                "%" G_GSIZE_FORMAT " (%" G_GSIZE_FORMAT " bytes skipped)\n",
                                d->path, last, len - 3 - last);
}

/* A DevTools stream with a line that is no message after the profile. */
static void
damage_arkts (const char *dir,
              Damaged *d)
{
  g_autoptr (GBytes) clean = NULL;
  g_autoptr (GString) s = NULL;

  d->source = "arkts-src";
  d->clean = rb_data_path ("arkts", "node20_cpuprofile_cdp_result.json");
  d->path = g_build_filename (dir, "damaged.jsonl", NULL);
  clean = rb_read_file (d->clean);
  s = g_string_new_len (g_bytes_get_data (clean, NULL), g_bytes_get_size (clean));
  g_string_append (s, "\nnot a message\n");
  rb_write_file (d->path, s->str, s->len);
  d->warning = g_strdup_printf ("WARNING: from /pipeline0/arkts-src0: %s: 1 malformed message (first at line 2: "
                                "text starting with 'n' between messages)\n",
                                d->path);
}

typedef struct
{
  const char *name;
  void (*damage) (const char *dir,
                  Damaged *d);
} DamageCase;

static const DamageCase damage_cases[] = {
  { "ftrace-src", damage_ftrace },
  { "json-src", damage_json },
  { "perfetto-src", damage_perfetto },
  { "arkts-src", damage_arkts },
};

/* Read to the end: exit 0, exactly the WARNING, and (where the damage
 * adds no event) as many events as the clean file gives. */
static void
test_damaged (gconstpointer data)
{
  const DamageCase *dc = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *location = NULL;
  g_autoptr (RbResult) r = NULL;
  g_autofree char *row = NULL;
  Damaged d = { 0 };

  dc->damage (dir, &d);
  location = g_strdup_printf ("location=%s", d.path);
  row = g_strdup_printf ("%s0", d.source);
  r = RB_RUN ("-q", "--stats", d.source, location, "!", "fakesink");
  g_assert_cmpint (r->status, ==, 0);
  /* the warning, then the --stats table (also on stderr) */
  g_assert_true (g_str_has_prefix (r->err, d.warning));
  g_assert_true (g_str_has_prefix (r->err + strlen (d.warning), "Statistics:\n"));
  g_assert_cmpuint (rb_stat (r->err, row, "events-out"), >, 0);
  if (d.clean)
    {
      g_autofree char *clean_location = g_strdup_printf ("location=%s", d.clean);
      g_autoptr (RbResult) c = RB_RUN ("-q", "--stats", d.source, clean_location, "!", "fakesink");

      g_assert_cmpuint (rb_stat (r->err, row, "events-out"), ==, rb_stat (c->err, row, "events-out"));
    }
  damaged_free (&d);
  rb_scratch_cleanup (dir);
}

/* --------------------------------------------------------------- limits */

static const char atrace_header[] = "# tracer: nop\n";

static char *
atrace_line (const char *ts,
             const char *payload)
{
  return g_strdup_printf ("          worker-700   (  643) [001] .... %s: tracing_mark_write: %s\n", ts, payload);
}

/* Writes @text to DIR/NAME and runs SOURCE on it into json-sink, with
 * --stats; the JSON output goes to DIR/out.json. */
static RbResult *
run_text (const char *dir,
          const char *name,
          const char *text,
          gsize len,
          const char *source,
          char **path_out)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);

  rb_write_file (path, text, len);
  if (path_out)
    *path_out = g_steal_pointer (&path);
  return RB_RUN ("-q", "--stats", source, location, "!", "json-sink", out_location);
}

/* The events of DIR/out.json. */
static JsonArray *
out_events (const char *dir,
            JsonParser *parser)
{
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, out, &error);
  g_assert_no_error (error);
  return json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
}

/* A line over 65 536 bytes is skipped with a warning, never held. */
static void
test_limit_line_length (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *b = atrace_line ("1.000000", "B|643|before");
  g_autofree char *e = atrace_line ("1.000002", "E|643");
  g_autofree char *huge = g_strnfill (65537, 'x');
  g_autofree char *text = g_strconcat (atrace_header, b, huge, "\n", e, NULL);
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  g_autoptr (RbResult) r = run_text (dir, "long-line.txt", text, strlen (text), "ftrace-src", &path);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *events;

  g_assert_cmpint (r->status, ==, 0);
  expected = g_strdup_printf ("WARNING: from /pipeline0/ftrace-src0: %s: 1 lines longer than 65536 bytes (line 3)\n", path);
  rb_assert_messages (r->err, expected);
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "skipped-lines-longer-than-65536-bytes"), ==, 1);
  /* the slice around it survives: thread name + one X */
  events = out_events (dir, parser);
  g_assert_cmpuint (json_array_get_length (events), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (events, 1), "name"), ==, "before");
  rb_scratch_cleanup (dir);
}

/* A name over 1 024 bytes is cut at 1 024, with a warning. */
static void
test_limit_name_length (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *name = g_strnfill (2000, 'n');
  g_autofree char *payload = g_strdup_printf ("B|643|%s", name);
  g_autofree char *b = atrace_line ("1.000000", payload);
  g_autofree char *e = atrace_line ("1.000002", "E|643");
  g_autofree char *text = g_strconcat (atrace_header, b, e, NULL);
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  g_autoptr (RbResult) r = run_text (dir, "long-name.txt", text, strlen (text), "ftrace-src", &path);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *events;

  g_assert_cmpint (r->status, ==, 0);
  expected = g_strdup_printf ("WARNING: from /pipeline0/ftrace-src0: %s: 1 names cut to 1024 bytes (line 2)\n", path);
  rb_assert_messages (r->err, expected);
  events = out_events (dir, parser);
  g_assert_cmpuint (json_array_get_length (events), ==, 2);
  g_assert_cmpuint (strlen (json_object_get_string_member (json_array_get_object_element (events, 1), "name")), ==, 1024);
  rb_scratch_cleanup (dir);
}

/* {"traceEvents":[{"ph":"i",…,"args":{"a":[[…]]}}]} with @depth levels
 * in all (the top-level object is 1). */
static char *
nested_trace (guint depth)
{
  GString *s = g_string_new ("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":1,\"name\":\"x\",\"args\":{\"a\":");

  for (guint i = 4; i < depth; i++)
    g_string_append_c (s, '[');
  g_string_append (s, "1");
  for (guint i = 4; i < depth; i++)
    g_string_append_c (s, ']');
  g_string_append (s, "}}]}");
  return g_string_free (s, FALSE);
}

/* The offset of the container that opens level @level. */
static gsize
level_offset (const char *text,
              guint level)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; text[i]; i++)
    {
      if (text[i] == '"')
        in_string = !in_string;
      else if (!in_string && (text[i] == '[' || text[i] == '{') && ++depth == level)
        return i;
      else if (!in_string && (text[i] == ']' || text[i] == '}'))
        depth--;
    }
  g_assert_not_reached ();
}

/* JSON nested 64 deep is read; 65 is an error (the reader recurses). */
static void
test_limit_json_depth (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *ok = nested_trace (64);
  g_autofree char *deep = nested_trace (65);
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  g_autoptr (RbResult) r_ok = run_text (dir, "depth-64.json", ok, strlen (ok), "json-src", NULL);
  g_autoptr (RbResult) r = run_text (dir, "depth-65.json", deep, strlen (deep), "json-src", &path);
  g_autoptr (JsonParser) parser = json_parser_new ();

  g_assert_cmpuint (level_offset (ok, 64), >, 0);
  g_assert_cmpint (r_ok->status, ==, 0);
  rb_assert_messages (r_ok->err, "");
  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/json-src0: %s: byte %" G_GSIZE_FORMAT
                              ": nesting deeper than 64 levels\n",
                              path, level_offset (deep, 65));
  rb_assert_messages (r->err, expected);
  rb_scratch_cleanup (dir);
}

/* Past 1 024 args an event keeps the first 1 024: counted, not a
 * warning (the event is fine, the model has no room). */
static void
test_limit_json_args (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autoptr (GString) s = g_string_new ("{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":1,\"name\":\"x\",\"args\":{");
  g_autofree char *path = NULL, *expected = NULL;
  g_autoptr (RbResult) r = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *events;
  JsonObject *args;

  for (guint i = 0; i < 1100; i++)
    g_string_append_printf (s, "%s\"k%04u\":%u", i ? "," : "", i, i);
  g_string_append (s, "}}]}");
  r = run_text (dir, "args.json", s->str, s->len, "json-src", &path);
  g_assert_cmpint (r->status, ==, 0);
  /* data lost: a WARNING, not only the stats key */
  expected = g_strdup_printf ("WARNING: from /pipeline0/json-src0: %s: skipped 1: 1 args dropped (at byte 16)\n", path);
  rb_assert_messages (r->err, expected);
  g_assert_cmpuint (rb_stat (r->err, "json-src0", "skipped-args-dropped"), ==, 1);
  events = out_events (dir, parser);
  g_assert_cmpuint (json_array_get_length (events), ==, 1);
  args = json_object_get_object_member (json_array_get_object_element (events, 0), "args");
  g_assert_cmpuint (json_object_get_size (args), ==, 1024);
  g_assert_true (json_object_has_member (args, "k1023"));
  g_assert_false (json_object_has_member (args, "k1024"));
  rb_scratch_cleanup (dir);
}

/* Numbers that do not fit: counted and skipped, with a warning. */
static void
test_limit_numbers (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  static const char json[] = "{\"traceEvents\":[{\"ph\":\"i\",\"ts\":2,\"pid\":1,\"tid\":1,\"name\":\"ok\"},\n"
                             "{\"ph\":\"i\",\"ts\":1e300,\"pid\":1,\"tid\":1,\"name\":\"far\"}]}";
  g_autofree char *ts = atrace_line ("99999999999999999999.000001", "B|643|a");
  g_autofree char *ms = atrace_line ("1.000000", "trace_event_clock_sync: realtime_ts=144855555979311494");
  g_autofree char *text = g_strconcat (atrace_header, ts, ms, NULL);
  g_autofree char *jpath = NULL, *fpath = NULL;
  g_autofree char *jexpected = NULL, *fexpected = NULL;
  g_autoptr (RbResult) rj = run_text (dir, "numbers.json", json, strlen (json), "json-src", &jpath);
  g_autoptr (RbResult) rf = run_text (dir, "numbers.txt", text, strlen (text), "ftrace-src", &fpath);

  g_assert_cmpint (rj->status, ==, 0);
  jexpected = g_strdup_printf ("WARNING: from /pipeline0/json-src0: %s: skipped 1: 1 bad timestamp (at byte %" G_GSIZE_FORMAT ")\n",
                               jpath, (gsize) (strchr (json, '\n') + 1 - json));
  rb_assert_messages (rj->err, jexpected);
  g_assert_cmpuint (rb_stat (rj->err, "json-src0", "events-out"), ==, 1);
  g_assert_cmpint (rf->status, ==, 0);
  fexpected = g_strdup_printf ("WARNING: from /pipeline0/ftrace-src0: %s: "
                               "1 unparsable lines (line 2); 1 malformed atrace markers (line 3)\n",
                               fpath);
  rb_assert_messages (rf->err, fexpected);
  rb_scratch_cleanup (dir);
}

/* A Perfetto record announcing 300 MiB is refused before any is read. */
static void
test_limit_perfetto_record (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  /* tag 0x0a, varint 314572800, then a few bytes */
  static const guint8 record[] = { 0x0a, 0x80, 0x80, 0x80, 0x96, 0x01, 0x08, 0x01 };
  g_autofree char *path = g_build_filename (dir, "huge.pftrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *expected = NULL;
  g_autoptr (RbResult) r = NULL;

  rb_write_file (path, record, sizeof record);
  r = RB_RUN ("-q", "perfetto-src", location, "!", "fakesink");
  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/perfetto-src0: %s: byte offset 0: a record of %u bytes is "
                              "larger than the limit of 256 MiB\n",
                              path, 300u * 1024 * 1024);
  rb_assert_messages (r->err, expected);
  rb_scratch_cleanup (dir);
}

/* Perfetto's pids and tids are 32 bits: perfetto-sink writes a process
 * and a thread of larger ids as ids of their own (the thread of pid 1 was
 * put in process 4294967297 once cut), and says so; read back, pid 1 and
 * the process of 4294967297 are two. */
static void
test_perfetto_sink_wide_ids (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *in = g_build_filename (dir, "wide.json", NULL);
  g_autofree char *out = g_build_filename (dir, "out.pftrace", NULL);
  g_autofree char *back = g_build_filename (dir, "back.json", NULL);
  g_autofree char *in_location = g_strdup_printf ("location=%s", in);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);
  g_autofree char *back_location = g_strdup_printf ("location=%s", back);
  g_autofree char *expected = NULL, *text = NULL;
  static const char json[] =
      "{\"traceEvents\":[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":4294967297,\"tid\":0,"
      "\"args\":{\"name\":\"big\"}},"
      "{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1},"
      "{\"ph\":\"X\",\"name\":\"b\",\"ts\":2,\"dur\":1,\"pid\":4294967297,\"tid\":4294967298}]}";
  g_autoptr (RbResult) r = NULL, rback = NULL;

  rb_write_file (in, json, strlen (json));
  r = RB_RUN ("-q", "--stats", "json-src", in_location, "!", "perfetto-sink", out_location);
  g_assert_cmpint (r->status, ==, 0);
  expected = g_strdup_printf ("WARNING: from /pipeline0/perfetto-sink0: %s: 2 pids and tids do not fit Perfetto's "
                              "32 bits: written as ids of their own, from 2147483647 down (4294967297 as 2147483647)\n",
                              out);
  rb_assert_messages (r->err, expected);
  g_assert_cmpuint (rb_stat (r->err, "perfetto-sink0", "mapped-ids"), ==, 2);
  rback = RB_RUN ("-q", "perfetto-src", out_location, "!", "json-sink", back_location);
  g_assert_cmpint (rback->status, ==, 0);
  rb_assert_messages (rback->err, "");
  g_assert_true (g_file_get_contents (back, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"name\":\"a\",\"ts\":1,\"pid\":1,\"tid\":1,"));
  g_assert_nonnull (strstr (text, "\"name\":\"b\",\"ts\":2,\"pid\":2147483647,\"tid\":2147483646,"));
  g_assert_nonnull (strstr (text, "\"name\":\"process_name\",\"ts\":0,\"pid\":2147483647,"));
  g_assert_null (strstr (text, "4294967297"));
  rb_scratch_cleanup (dir);
}

void
rb_add_input_tests (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (pipe_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/robustness/pipe/%s/%s%s", pipe_cases[i].source, pipe_cases[i].name,
                                               pipe_cases[i].gzip ? ".gz" : "");

      g_autofree char *auto_name = g_strdup_printf ("/robustness/pipe/auto-src/%s%s", pipe_cases[i].name,
                                                    pipe_cases[i].gzip ? ".gz" : "");

      g_test_add_data_func (name, &pipe_cases[i], test_pipe);
      g_test_add_data_func (auto_name, &pipe_cases[i], test_pipe_auto_src);
    }
  g_test_add_func ("/robustness/encoding/utf16-large", test_utf16);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/robustness/bad-input/%s/%s", bad_cases[i].source,
                                               bad_names[bad_cases[i].kind]);

      g_test_add_data_func (name, &bad_cases[i], test_bad_input);
    }
  for (guint i = 0; i < G_N_ELEMENTS (damage_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/robustness/damaged/%s", damage_cases[i].name);

      g_test_add_data_func (name, &damage_cases[i], test_damaged);
    }
  g_test_add_func ("/robustness/limits/ftrace-line-length", test_limit_line_length);
  g_test_add_func ("/robustness/limits/ftrace-name-length", test_limit_name_length);
  g_test_add_func ("/robustness/limits/json-depth", test_limit_json_depth);
  g_test_add_func ("/robustness/limits/json-args", test_limit_json_args);
  g_test_add_func ("/robustness/limits/numbers", test_limit_numbers);
  g_test_add_func ("/robustness/limits/perfetto-record-size", test_limit_perfetto_record);
  g_test_add_func ("/robustness/limits/perfetto-sink-wide-ids", test_perfetto_sink_wide_ids);
}
