/* A generated systrace (gen-synth, 2 MB) through `ftrace-src !
 * perfetto-sink`: the size of the .pftrace against the text, the file
 * decoded by protoc against the project's .proto files (packet shapes,
 * and the events counted in the decoded text against the lines of the
 * input), and read back by perfetto-src. */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt-util.h"

static char *gen_dir;
static char *gen_text;
static char *gen_pftrace;

/* The input and its conversion, made once for all tests here. */
static gboolean
ensure_generated (void)
{
  g_autofree char *desc = NULL;

  if (!rt_have_gen_synth ())
    return FALSE;
  if (gen_pftrace)
    return TRUE;
  gen_dir = rt_tmpdir ();
  gen_text = rt_gen_synth (gen_dir, "systrace", "synth.txt", 2, "--waking");
  gen_pftrace = g_build_filename (gen_dir, "synth.pftrace", NULL);
  desc = g_strdup_printf ("ftrace-src location=%s ! perfetto-sink location=%s", gen_text, gen_pftrace);
  rt_run (desc, FALSE);
  return TRUE;
}

static goffset
file_size (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_size;
}

/* Interning and compact sched keep the file under a quarter of the text
 * (docs/perfetto.md gives the 200 MB figure). */
static void
test_size (void)
{
  goffset text, proto;

  if (!ensure_generated ())
    return;
  text = file_size (gen_text);
  proto = file_size (gen_pftrace);
  g_test_message ("%s: %" G_GOFFSET_FORMAT " bytes of text, %" G_GOFFSET_FORMAT " bytes of pftrace (%.1f %%)",
                  gen_text, text, proto, 100.0 * proto / text);
  g_assert_cmpint (text, >=, 2 * 1000 * 1000);
  g_assert_cmpint (proto * 4, <, text);
}

/* ---- what the text says ---- */

typedef struct
{
  guint begins, matched_ends, counters, switches, wakeups, wakings, freqs, lines;
} TextCounts;

/* Reads the generated lines as a person would: the TASK-TID column, the
 * event name, and the atrace payload of tracing_mark_write. */
static void
count_text (const char *path,
            TextCounts *c)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) open = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GRegex) re = g_regex_new ("^\\s*.+-(\\d+)\\s+\\(\\s*[-\\d]+\\)\\s+\\[\\d+\\]\\s+\\S+\\s+[\\d.]+: (\\w+): (.*)$",
                                       G_REGEX_OPTIMIZE, 0, NULL);

  memset (c, 0, sizeof *c);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = rt_split_lines (text);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GMatchInfo) m = NULL;
      g_autofree char *tid_text = NULL, *event = NULL, *payload = NULL;
      gpointer tid;
      guint depth;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      g_assert_true (g_regex_match (re, lines[i], 0, &m));
      c->lines++;
      tid_text = g_match_info_fetch (m, 1);
      event = g_match_info_fetch (m, 2);
      payload = g_match_info_fetch (m, 3);
      tid = GINT_TO_POINTER (atoi (tid_text));
      depth = GPOINTER_TO_UINT (g_hash_table_lookup (open, tid));
      if (g_str_equal (event, "sched_switch"))
        c->switches++;
      else if (g_str_equal (event, "sched_wakeup"))
        c->wakeups++;
      else if (g_str_equal (event, "sched_waking"))
        c->wakings++;
      else if (g_str_equal (event, "cpu_frequency"))
        c->freqs++;
      else if (g_str_equal (event, "tracing_mark_write") && payload[0] == 'B')
        c->begins++, depth++;
      else if (g_str_equal (event, "tracing_mark_write") && payload[0] == 'E' && depth > 0)
        c->matched_ends++, depth--;
      else if (g_str_equal (event, "tracing_mark_write") && payload[0] == 'C')
        c->counters++;
      g_hash_table_insert (open, tid, GUINT_TO_POINTER (depth));
    }
}

/* ---- what protoc decodes ---- */

typedef struct
{
  guint packets, slice_begins, slice_ends, counters, full_switches, compact_switches, wakeups, wakings,
      compact_wakings, freqs, bundles_without_cpu;
  guint bad_sequence, undeclared_tracks, unknown_iids, interned_without_flag;
  gboolean first_cleared, first_on_sequence, first_clock;
} Decoded;

typedef struct
{
  Decoded *d;
  GPtrArray *path;        /* field names of the open messages */
  GHashTable *tracks;     /* uuids declared */
  GHashTable *iids;       /* "table/iid" defined */
  GPtrArray *used_iids;   /* "table/iid" of this packet */
  GPtrArray *used_tracks; /* uuids of this packet */
  gboolean packet_needs_state, packet_flag_needed;
  guint packet_flags;
} Decoder;

static const char *
path_text (Decoder *dc,
           GString *buf)
{
  g_string_truncate (buf, 0);
  for (guint i = 0; i < dc->path->len; i++)
    g_string_append_printf (buf, "%s%s", i ? "." : "", (char *) dc->path->pdata[i]);
  return buf->str;
}

/* One `field: value` line inside the message at @where. */
static void
decode_field (Decoder *dc,
              const char *where,
              const char *field,
              const char *value)
{
  Decoded *d = dc->d;
  static const char *tables[][3] = {
    { "packet.track_event", "name_iid", "event_names" },
    { "packet.track_event", "category_iids", "event_categories" },
    { "packet.track_event.debug_annotations", "name_iid", "debug_annotation_names" },
  };

  if (g_str_equal (where, "packet.track_event") && g_str_equal (field, "type"))
    {
      d->slice_begins += g_str_equal (value, "TYPE_SLICE_BEGIN");
      d->slice_ends += g_str_equal (value, "TYPE_SLICE_END");
      d->counters += g_str_equal (value, "TYPE_COUNTER");
    }
  else if (g_str_equal (where, "packet.track_event") && g_str_equal (field, "track_uuid"))
    g_ptr_array_add (dc->used_tracks, g_strdup (value));
  else if (g_str_equal (where, "packet.track_descriptor") && g_str_equal (field, "uuid"))
    g_hash_table_add (dc->tracks, g_strdup (value));
  else if (g_str_equal (where, "packet.track_descriptor") && g_str_equal (field, "parent_uuid"))
    d->undeclared_tracks += !g_hash_table_contains (dc->tracks, value);
  else if (g_str_equal (where, "packet") && g_str_equal (field, "sequence_flags"))
    dc->packet_flags = atoi (value);
  else if (g_str_equal (where, "packet") && g_str_equal (field, "trusted_packet_sequence_id"))
    d->bad_sequence += !g_str_equal (value, "1");
  else if (g_str_equal (where, "packet") && g_str_equal (field, "first_packet_on_sequence"))
    d->first_on_sequence = d->packets == 0 && g_str_equal (value, "true");
  else if (g_str_equal (where, "packet.trace_packet_defaults") && g_str_equal (field, "timestamp_clock_id"))
    d->first_clock = d->first_clock || (d->packets == 0 && g_str_equal (value, "6"));
  else if (g_str_equal (where, "packet.ftrace_events.compact_sched") && g_str_equal (field, "switch_timestamp"))
    d->compact_switches++;
  else if (g_str_equal (where, "packet.ftrace_events.compact_sched") && g_str_equal (field, "waking_timestamp"))
    d->compact_wakings++;
  else if (g_str_has_prefix (where, "packet.interned_data.") && g_str_equal (field, "iid"))
    g_hash_table_add (dc->iids, g_strdup_printf ("%s/%s", where + strlen ("packet.interned_data."), value));
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (g_str_equal (where, tables[i][0]) && g_str_equal (field, tables[i][1]))
      g_ptr_array_add (dc->used_iids, g_strdup_printf ("%s/%s", tables[i][2], value));
}

static void
open_message (Decoder *dc,
              const char *where,
              const char *name)
{
  if (g_str_equal (where, "packet.ftrace_events.event"))
    {
      dc->d->full_switches += g_str_equal (name, "sched_switch");
      dc->d->wakeups += g_str_equal (name, "sched_wakeup");
      dc->d->wakings += g_str_equal (name, "sched_waking");
      dc->d->freqs += g_str_equal (name, "cpu_frequency");
    }
  if (g_str_equal (where, "packet") && g_str_equal (name, "interned_data"))
    dc->packet_needs_state = TRUE;
}

/* At the end of a packet: what it used was declared before (or in it),
 * its flags say what it needs. */
static void
close_packet (Decoder *dc)
{
  Decoded *d = dc->d;

  if (d->packets == 0)
    {
      d->first_cleared = (dc->packet_flags & 1) != 0;
      /* The first packet clears the state: nothing defined before it. */
    }
  for (guint i = 0; i < dc->used_tracks->len; i++)
    d->undeclared_tracks += !g_hash_table_contains (dc->tracks, dc->used_tracks->pdata[i]);
  for (guint i = 0; i < dc->used_iids->len; i++)
    d->unknown_iids += !g_hash_table_contains (dc->iids, dc->used_iids->pdata[i]);
  if ((dc->used_iids->len > 0 || dc->packet_needs_state) && !(dc->packet_flags & 2) && d->packets > 0)
    d->interned_without_flag++;
  g_ptr_array_set_size (dc->used_iids, 0);
  g_ptr_array_set_size (dc->used_tracks, 0);
  dc->packet_needs_state = FALSE;
  dc->packet_flags = 0;
  d->packets++;
}

static void
decode_text (const char *text,
             Decoded *d)
{
  g_auto (GStrv) lines = rt_split_lines (text);
  g_autoptr (GString) buf = g_string_new (NULL);
  Decoder dc = { d, g_ptr_array_new_with_free_func (g_free) };

  dc.tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dc.iids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dc.used_iids = g_ptr_array_new_with_free_func (g_free);
  dc.used_tracks = g_ptr_array_new_with_free_func (g_free);
  memset (d, 0, sizeof *d);
  for (guint i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      gsize len = strlen (line);
      char *colon;

      if (len == 0)
        continue;
      if (g_str_equal (line, "}"))
        {
          g_assert_cmpuint (dc.path->len, >, 0);
          g_ptr_array_set_size (dc.path, dc.path->len - 1);
          if (dc.path->len == 0)
            close_packet (&dc);
        }
      else if (line[len - 1] == '{')
        {
          line[len - 2] = '\0';
          open_message (&dc, path_text (&dc, buf), line);
          g_ptr_array_add (dc.path, g_strdup (line));
          if (dc.path->len == 2 && g_str_equal (line, "ftrace_events"))
            d->bundles_without_cpu++;
        }
      else if ((colon = strchr (line, ':')) != NULL)
        {
          *colon = '\0';
          if (dc.path->len == 2 && g_str_equal (path_text (&dc, buf), "packet.ftrace_events") && g_str_equal (line, "cpu"))
            d->bundles_without_cpu--;
          decode_field (&dc, path_text (&dc, buf), line, colon + 2);
        }
    }
  g_assert_cmpuint (dc.path->len, ==, 0);
  g_ptr_array_unref (dc.path);
  g_ptr_array_unref (dc.used_iids);
  g_ptr_array_unref (dc.used_tracks);
  g_hash_table_unref (dc.tracks);
  g_hash_table_unref (dc.iids);
}

static char *
run_protoc (const char *path)
{
  const char *protoc = g_getenv ("PROTOC");
  const char *proto_dir = g_getenv ("PERFETTO_PROTO_DIR");
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *proto_path = g_strdup_printf ("--proto_path=%s", proto_dir);
  char *out = NULL;

  g_subprocess_launcher_set_stdin_file_path (l, path);
  p = g_subprocess_launcher_spawn (l, &error, protoc, "--decode=perfetto.protos.Trace", proto_path, "trace.proto", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (p));
  return out;
}

static void
test_protoc (void)
{
  g_autofree char *text = NULL;
  TextCounts c;
  Decoded d;

  if (g_getenv ("PROTOC") == NULL || g_getenv ("PERFETTO_PROTO_DIR") == NULL)
    {
      g_test_skip ("protoc not found (Debian: protobuf-compiler)");
      return;
    }
  if (!ensure_generated ())
    return;
  text = run_protoc (gen_pftrace);
  decode_text (text, &d);
  count_text (gen_text, &c);
  g_test_message ("%u lines: %u B, %u matched E, %u C, %u sched_switch, %u sched_wakeup, %u sched_waking, %u cpu_frequency",
                  c.lines, c.begins, c.matched_ends, c.counters, c.switches, c.wakeups, c.wakings, c.freqs);
  g_test_message ("%u packets: %u slice begins, %u ends, %u counters, %u+%u switches (full+compact), %u wakeups, %u+%u wakings, %u freqs",
                  d.packets, d.slice_begins, d.slice_ends, d.counters, d.full_switches, d.compact_switches, d.wakeups,
                  d.wakings, d.compact_wakings, d.freqs);
  /* The sequence: cleared and on BOOTTIME from the first packet; every
   * packet on sequence 1; what a packet refers to was sent before. */
  g_assert_true (d.first_cleared);
  g_assert_true (d.first_on_sequence);
  g_assert_true (d.first_clock);
  g_assert_cmpuint (d.bad_sequence, ==, 0);
  g_assert_cmpuint (d.undeclared_tracks, ==, 0);
  g_assert_cmpuint (d.unknown_iids, ==, 0);
  g_assert_cmpuint (d.interned_without_flag, ==, 0);
  /* Bundles say their cpu (the text has one on every line). */
  g_assert_cmpuint (d.bundles_without_cpu, ==, 0);
  /* Every line became exactly one record of its kind. */
  g_assert_cmpuint (c.begins, >, 1000);
  g_assert_cmpuint (d.slice_begins, ==, c.begins);
  g_assert_cmpuint (d.slice_ends, ==, c.matched_ends);
  g_assert_cmpuint (d.counters, ==, c.counters);
  g_assert_cmpuint (c.switches, >, 1000);
  g_assert_cmpuint (d.full_switches + d.compact_switches, ==, c.switches);
  g_assert_cmpuint (d.compact_switches, >, c.switches / 2);
  g_assert_cmpuint (d.wakeups, ==, c.wakeups);
  g_assert_cmpuint (c.wakings, >, 1000);
  g_assert_cmpuint (d.wakings + d.compact_wakings, ==, c.wakings);
  g_assert_cmpuint (d.freqs, ==, c.freqs);
}

/* The whole generated stream comes back, less the documented losses. */
static void
test_round_trip (void)
{
  g_autofree char *direct_desc = NULL;
  g_autofree char *back_desc = NULL;
  g_autoptr (TraceBatch) direct = NULL;
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GPtrArray) want = NULL;
  g_autoptr (GPtrArray) got = NULL;

  if (!ensure_generated ())
    return;
  direct_desc = g_strdup_printf ("ftrace-src location=%s ! collectsink name=out", gen_text);
  back_desc = g_strdup_printf ("perfetto-src location=%s ! collectsink name=out", gen_pftrace);
  direct = rt_run (direct_desc, TRUE);
  back = rt_run (back_desc, TRUE);
  want = rt_view (direct, RT_VIEW_PERFETTO | RT_VIEW_PERFETTO_DROPS);
  got = rt_view (back, RT_VIEW_PERFETTO);
  g_assert_cmpuint (want->len, >, 10000);
  rt_assert_same_view ("generated systrace", want, got);
}

int
main (int argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  g_test_add_func ("/roundtrip/generated-systrace/size", test_size);
  g_test_add_func ("/roundtrip/generated-systrace/protoc", test_protoc);
  g_test_add_func ("/roundtrip/generated-systrace/perfetto", test_round_trip);
  ret = g_test_run ();
  if (gen_dir)
    rt_rmtree (gen_dir);
  g_free (gen_dir);
  g_free (gen_text);
  g_free (gen_pftrace);
  return ret;
}
