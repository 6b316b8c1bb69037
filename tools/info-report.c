/* tracepipe tools - trace-info: the summary, for people and for scripts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "info-report.h"

static char *
format_abs_seconds (gboolean negative,
                    guint64 abs_ns)
{
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%09u", negative ? "-" : "", abs_ns / 1000000000,
                          (guint) (abs_ns % 1000000000));
}

/* 1212465062000 -> "1212.465062000" (seconds, every nanosecond shown) */
static char *
format_seconds (gint64 ns)
{
  return format_abs_seconds (ns < 0, ns < 0 ? -(guint64) ns : (guint64) ns);
}

/* From the first event to the last: up to 2^64 - 1 ns when the times
 * span the whole of int64, which a gint64 difference would overflow. */
static guint64
span_ns (const InfoSummary *s)
{
  return (guint64) s->last_ts - (guint64) s->first_ts;
}

static const char *
string_of (TraceStringPool *pool,
           guint32 id)
{
  return id == 0 ? "" : trace_string_pool_get (pool, id);
}

/* What each format id of tracepipe's own sources is, in words: the
 * stream carries ids only (`cpu-profile`, like `ftrace`), which scripts
 * compare; people read these. NULL for a format of another plugin. */
static const char *
format_description (const char *format)
{
  static const char *const descriptions[][2] = {
    { "ftrace", "ftrace text" },
    { "systrace-html", "systrace HTML" },
    { "ctrace", "compressed systrace (ctrace)" },
    { "chrome-json", "Chrome JSON trace" },
    { "perfetto", "Perfetto protobuf trace" },
    { "htrace", "OpenHarmony htrace capture" },
    { "cpu-profile", "CPU profile" },
    { "heap-snapshot", "heap snapshot" },
    { "heap-profile", "heap profile" },
    { "devtools-messages", "DevTools messages" },
  };

  for (guint i = 0; format != NULL && i < G_N_ELEMENTS (descriptions); i++)
    if (strcmp (format, descriptions[i][0]) == 0)
      return descriptions[i][1];
  return NULL;
}

/* A process the trace never named is called after its main thread
 * (tid == pid), as ftrace traces name only threads. */
static const char *
owner_name (const InfoResult *r,
            InfoTable table,
            const InfoThread *t)
{
  InfoThread key = { .pid = t->pid, .tid = t->pid };
  const InfoThread *main_thread;

  if (t->name != 0 || table != INFO_TABLE_PROCESSES)
    return t->name ? string_of (r->pool, t->name) : NULL;
  main_thread = g_hash_table_lookup (r->summary->tables[INFO_TABLE_THREADS], &key);
  return main_thread && main_thread->name ? string_of (r->pool, main_thread->name) : NULL;
}

/* The source's counters that tell what it left out: skipped-*, lost-*,
 * truncated-*, dropped-*, when not zero. */
static gboolean
is_skip_counter (const char *key,
                 GVariant *value)
{
  static const char *const prefixes[] = { "skipped", "lost", "truncated", "dropped" };

  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_UINT64) || g_variant_get_uint64 (value) == 0)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (key, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* --- for people --- */

static void
print_kinds (const InfoSummary *s)
{
  g_autoptr (GString) line = g_string_new (NULL);
  gboolean done[TRACE_EVENT_N_KINDS] = { FALSE };

  /* most frequent first */
  for (;;)
    {
      int best = -1;

      for (int k = 0; k < TRACE_EVENT_N_KINDS; k++)
        if (!done[k] && s->by_kind[k] > 0 && (best < 0 || s->by_kind[k] > s->by_kind[best]))
          best = k;
      if (best < 0)
        break;
      done[best] = TRUE;
      g_string_append_printf (line, "%s%s %" G_GUINT64_FORMAT, line->len ? ", " : "",
                              trace_event_kind_to_string (best), s->by_kind[best]);
    }
  g_print ("  %-13s %s\n", "kinds", line->len ? line->str : "(none)");
}

/* An id the trace did not give is shown as "-". */
static char *
id_text (gint64 id)
{
  return id == TRACE_ID_UNKNOWN ? g_strdup ("-") : g_strdup_printf ("%" G_GINT64_FORMAT, id);
}

static void
print_owner_row (const InfoResult *r,
                 InfoTable table,
                 const InfoThread *t)
{
  const char *name = owner_name (r, table, t);
  g_autofree char *pid = id_text (t->pid), *tid = id_text (t->tid);

  if (table == INFO_TABLE_THREADS)
    g_print ("    %10s %10s %12" G_GUINT64_FORMAT "  %s\n", pid, tid, t->events, name ? name : "");
  else
    g_print ("    %10s %12" G_GUINT64_FORMAT "  %s\n", pid, t->events, name ? name : "");
}

static void
print_owners (const InfoResult *r,
              InfoTable table,
              guint top)
{
  g_autoptr (GPtrArray) rows = info_table_sorted (r->summary, table);
  gboolean threads = table == INFO_TABLE_THREADS;

  g_print ("  %-13s %u", threads ? "threads" : "processes", rows->len);
  if (r->summary->overflow[table] > 0)
    g_print (" (table full: %" G_GUINT64_FORMAT " more events on others)", r->summary->overflow[table]);
  if (rows->len > top)
    g_print (", top %u by events:\n", top);
  else
    g_print ("%s\n", rows->len ? ":" : "");
  if (rows->len > 0 && threads)
    g_print ("    %10s %10s %12s  %s\n", "pid", "tid", "events", "name");
  else if (rows->len > 0)
    g_print ("    %10s %12s  %s\n", "pid", "events", "name");
  for (guint i = 0; i < rows->len && i < top; i++)
    print_owner_row (r, table, rows->pdata[i]);
}

static void
print_names (const InfoResult *r,
             InfoTable table,
             guint top)
{
  g_autoptr (GPtrArray) rows = info_table_sorted (r->summary, table);
  gboolean counters = table == INFO_TABLE_COUNTERS;

  g_print ("  %-13s %u", counters ? "counters" : "slice names", rows->len);
  if (r->summary->overflow[table] > 0)
    g_print (" (table full: %" G_GUINT64_FORMAT " more events under other names)", r->summary->overflow[table]);
  g_print ("%s\n", rows->len > top ? ", the most frequent:" : rows->len ? ":"
                                                                        : "");
  for (guint i = 0; i < rows->len && i < top; i++)
    {
      InfoName *n = rows->pdata[i];

      if (counters)
        g_print ("    %12" G_GUINT64_FORMAT "  %s  (min %g, max %g)\n", n->count, string_of (r->pool, n->name), n->min,
                 n->max);
      else
        g_print ("    %12" G_GUINT64_FORMAT "  %s\n", n->count, string_of (r->pool, n->name));
    }
}

static void
print_time (const InfoSummary *s)
{
  g_autofree char *first = NULL, *last = NULL, *duration = NULL;

  if (!s->have_ts)
    {
      g_print ("  %-13s %s\n", "time", "(no timed events)");
      return;
    }
  first = format_seconds (s->first_ts);
  last = format_seconds (s->last_ts);
  duration = format_abs_seconds (FALSE, span_ns (s));
  g_print ("  %-13s %s s  (ts %" G_GINT64_FORMAT " ns; relative +0 s)\n", "first event", first, s->first_ts);
  g_print ("  %-13s %s s  (ts %" G_GINT64_FORMAT " ns; relative +%s s)\n", "last event", last, s->last_ts, duration);
  g_print ("  %-13s %s s\n", "duration", duration);
}

static void
print_skipped (const InfoResult *r)
{
  g_autoptr (GString) line = g_string_new (NULL);
  GVariantIter iter;
  const char *key;
  GVariant *value;

  if (r->source_stats != NULL)
    {
      g_variant_iter_init (&iter, r->source_stats);
      while (g_variant_iter_next (&iter, "{&sv}", &key, &value))
        {
          if (is_skip_counter (key, value))
            g_string_append_printf (line, "%s%s=%" G_GUINT64_FORMAT, line->len ? " " : "", key,
                                    g_variant_get_uint64 (value));
          g_variant_unref (value);
        }
    }
  g_print ("  %-13s %s\n", "skipped", line->len ? line->str : "nothing");
}

/**
 * info_print_text:
 * @r: one file's result
 * @top: how many rows of each table
 *
 * The summary for people, on standard output.
 */
void
info_print_text (const InfoResult *r,
                 guint top)
{
  const InfoSummary *s = r->summary;
  const char *format = s->format ? s->format : "unknown";
  const char *description = format_description (s->format);
  /* the source's own name for the format is the more precise
   * (systrace-html rather than the type finder's ftrace) */
  gboolean detected = r->detected != NULL && strcmp (r->detected, format) != 0;

  g_print ("%s\n", r->path);
  if (description != NULL || detected)
    g_print ("  %-13s %s (%s%s%s%s)\n", "format", format, description ? description : "",
             description && detected ? ", " : "", detected ? "detected as " : "", detected ? r->detected : "");
  else
    g_print ("  %-13s %s\n", "format", format);
  g_print ("  %-13s %s%s%s%s\n", "clock", s->clock ? s->clock : "unknown", s->clock_source ? " (" : "",
           s->clock_source ? s->clock_source : "", s->clock_source ? ")" : "");
  g_print ("  %-13s %" G_GUINT64_FORMAT "\n", "events", s->events);
  print_time (s);
  print_kinds (s);
  print_owners (r, INFO_TABLE_PROCESSES, top);
  print_owners (r, INFO_TABLE_THREADS, top);
  print_names (r, INFO_TABLE_SLICE_NAMES, top);
  print_names (r, INFO_TABLE_COUNTERS, top);
  print_skipped (r);
}

/* --- for scripts --- */

static void
add_member_int (JsonBuilder *b,
                const char *key,
                gint64 value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, value);
}

static void
add_member_string (JsonBuilder *b,
                   const char *key,
                   const char *value)
{
  g_autofree char *valid = NULL;

  json_builder_set_member_name (b, key);
  /* JSON is UTF-8; a file name need not be (its bytes become U+FFFD) */
  if (value && !g_utf8_validate (value, -1, NULL))
    value = valid = g_utf8_make_valid (value, -1);
  if (value)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* an id the input did not tell is null, not -1 */
static void
add_id (JsonBuilder *b,
        const char *key,
        gint64 id)
{
  json_builder_set_member_name (b, key);
  if (id == TRACE_ID_UNKNOWN)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, id);
}

/* "NAME": {"count": N, "overflow-events": N, "top": [ ... — the rows
 * follow, then json_builder_end_array() and _end_object(). */
static void
begin_top_table (JsonBuilder *b,
                 const char *name,
                 guint count,
                 guint64 overflow)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  add_member_int (b, "count", count);
  add_member_int (b, "overflow-events", overflow);
  json_builder_set_member_name (b, "top");
  json_builder_begin_array (b);
}

static void
add_owners (JsonBuilder *b,
            const InfoResult *r,
            InfoTable table,
            guint top)
{
  g_autoptr (GPtrArray) rows = info_table_sorted (r->summary, table);
  gboolean threads = table == INFO_TABLE_THREADS;

  begin_top_table (b, threads ? "threads" : "processes", rows->len, r->summary->overflow[table]);
  for (guint i = 0; i < rows->len && i < top; i++)
    {
      InfoThread *t = rows->pdata[i];

      json_builder_begin_object (b);
      add_id (b, "pid", t->pid);
      if (threads)
        add_id (b, "tid", t->tid);
      add_member_string (b, "name", owner_name (r, table, t));
      add_member_int (b, "events", t->events);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_names (JsonBuilder *b,
           const InfoResult *r,
           InfoTable table,
           guint top)
{
  g_autoptr (GPtrArray) rows = info_table_sorted (r->summary, table);
  gboolean counters = table == INFO_TABLE_COUNTERS;

  begin_top_table (b, counters ? "counters" : "slice-names", rows->len, r->summary->overflow[table]);
  for (guint i = 0; i < rows->len && i < top; i++)
    {
      InfoName *n = rows->pdata[i];

      json_builder_begin_object (b);
      add_member_string (b, "name", string_of (r->pool, n->name));
      add_member_int (b, "count", n->count);
      if (counters)
        {
          json_builder_set_member_name (b, "min");
          json_builder_add_double_value (b, n->min);
          json_builder_set_member_name (b, "max");
          json_builder_add_double_value (b, n->max);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_source (JsonBuilder *b,
            const InfoResult *r)
{
  GVariantIter iter;
  const char *key;
  GVariant *value;

  json_builder_set_member_name (b, "skipped");
  json_builder_begin_object (b);
  if (r->source_stats != NULL)
    {
      g_variant_iter_init (&iter, r->source_stats);
      while (g_variant_iter_next (&iter, "{&sv}", &key, &value))
        {
          if (is_skip_counter (key, value))
            add_member_int (b, key, g_variant_get_uint64 (value));
          g_variant_unref (value);
        }
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "source");
  json_builder_add_value (b, r->source_stats ? json_gvariant_serialize (r->source_stats) : json_node_new (JSON_NODE_NULL));
}

static void
add_time (JsonBuilder *b,
          const InfoSummary *s)
{
  json_builder_set_member_name (b, "first-ts");
  s->have_ts ? json_builder_add_int_value (b, s->first_ts) : json_builder_add_null_value (b);
  json_builder_set_member_name (b, "last-ts");
  s->have_ts ? json_builder_add_int_value (b, s->last_ts) : json_builder_add_null_value (b);
  json_builder_set_member_name (b, "duration");
  if (!s->have_ts)
    json_builder_add_null_value (b);
  else if (span_ns (s) <= G_MAXINT64)
    json_builder_add_int_value (b, (gint64) span_ns (s));
  else /* past int64: the nearest double, never a negative number */
    json_builder_add_double_value (b, (double) span_ns (s));
}

/**
 * info_print_json:
 * @r: one file's result
 * @top: how many rows of each table
 *
 * The summary as one line of JSON (JSON Lines: one object per file).
 * Timestamps are integer nanoseconds, as the events carry them.
 */
void
info_print_json (const InfoResult *r,
                 guint top)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  const InfoSummary *s = r->summary;

  json_builder_begin_object (b);
  add_member_string (b, "file", r->path);
  add_member_string (b, "format", s->format);
  add_member_string (b, "format-description", format_description (s->format));
  add_member_string (b, "detected-format", r->detected);
  add_member_string (b, "clock", s->clock);
  add_member_string (b, "clock-source", s->clock_source);
  add_member_int (b, "events", s->events);
  add_time (b, s);
  json_builder_set_member_name (b, "kinds");
  json_builder_begin_object (b);
  for (int k = 0; k < TRACE_EVENT_N_KINDS; k++)
    if (s->by_kind[k] > 0)
      add_member_int (b, trace_event_kind_to_string (k), s->by_kind[k]);
  json_builder_end_object (b);
  add_owners (b, r, INFO_TABLE_PROCESSES, top);
  add_owners (b, r, INFO_TABLE_THREADS, top);
  add_names (b, r, INFO_TABLE_SLICE_NAMES, top);
  add_names (b, r, INFO_TABLE_COUNTERS, top);
  add_source (b, r);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = trace_json_text_escape_controls (json_generator_to_data (gen, NULL));
  /* data, not a message: its UTF-8 bytes as they are, whatever the
   * locale (g_print would turn them into '?' under LC_ALL=C) */
  fputs (text, stdout);
  fputc ('\n', stdout);
}
