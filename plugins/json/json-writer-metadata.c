/* tracepipe - json plugin: the writer's "metadata" member and the clock
 * markers that go into it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The top-level "metadata" object is written last (a source may learn it
 * late): the stream's members, the clock domain, and the clock markers
 * that have no event form.
 */
#include "config.h"

#include "json-writer-private.h"

/* Sync ids become Chrome's `c` events; the other markers have no event
 * form and go to metadata "tracepipe-clock-markers". */
void
chrome_writer_clock_marker (ChromeWriter *w,
                            const TraceEvent *ev)
{
  guint32 name = ev->name ? ev->name : w->str_clock_sync;

  if (ev->u.clock.marker != TRACE_CLOCK_MARKER_SYNC_ID)
    {
      if (w->opts.form == CHROME_FORM_ARRAY ||
          w->clock_markers->len >= CHROME_WRITER_MAX_CLOCK_MARKERS)
        chrome_writer_count_drop (w, &w->stats.dropped_clock_markers, "clock marker dropped (array form or too many)");
      else
        g_array_append_val (w->clock_markers, *ev);
      return;
    }
  chrome_writer_event_open (w, "c", name, ev->category, ev->ts, ev->pid, ev->tid);
  g_string_append (w->buf, ",\"args\":{\"sync_id\":");
  chrome_writer_put_string (w, ev->u.clock.sync_id);
  if (ev->u.clock.issue_ts != 0)
    {
      g_string_append (w->buf, ",\"issue_ts\":");
      chrome_fmt_us (w->buf, ev->u.clock.issue_ts);
    }
  g_string_append (w->buf, "}}");
}

static const char *
clock_domain_name (TraceClockDomain domain)
{
  /* Chrome's name for it, which catapult's clock sync understands */
  if (domain == TRACE_CLOCK_MONOTONIC)
    return "LINUX_CLOCK_MONOTONIC";
  return trace_clock_domain_to_string (domain);
}

static JsonNode *
clock_markers_node (ChromeWriter *w)
{
  static const char *const kinds[] = { "parent_ts", "realtime_ts", "sync_id", "pair" };
  JsonArray *array = json_array_new ();
  JsonNode *node;

  for (guint i = 0; i < w->clock_markers->len; i++)
    {
      const TraceEvent *ev = &g_array_index (w->clock_markers, TraceEvent, i);
      JsonObject *o = json_object_new ();

      json_object_set_string_member (o, "marker", kinds[MIN (ev->u.clock.marker, 3u)]);
      json_object_set_int_member (o, "ts_ns", ev->ts);
      json_object_set_int_member (o, "other_ts_ns", ev->u.clock.other_ts);
      json_object_set_string_member (o, "domain", trace_clock_domain_to_string (ev->u.clock.domain));
      if (ev->pid != TRACE_ID_UNKNOWN)
        json_object_set_int_member (o, "pid", ev->pid);
      json_array_add_object_element (array, o);
    }
  node = json_node_init_array (json_node_alloc (), array);
  json_array_unref (array);
  return node;
}

/**
 * chrome_writer_set_metadata:
 * @metadata: (nullable): the members for "metadata" instead of
 *   #ChromeWriterOptions.metadata (a source may learn them late)
 */
void
chrome_writer_set_metadata (ChromeWriter *w,
                            JsonObject *metadata)
{
  g_return_if_fail (w != NULL);

  g_clear_pointer (&w->metadata, json_object_unref);
  w->metadata = metadata ? json_object_ref (metadata) : NULL;
}

void
chrome_writer_put_metadata (ChromeWriter *w)
{
  g_autoptr (JsonObject) meta = json_object_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  if (w->metadata != NULL)
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *node;

      json_object_iter_init_ordered (&iter, w->metadata);
      while (json_object_iter_next_ordered (&iter, &key, &node))
        json_object_set_member (meta, key, json_node_copy (node));
    }
  if (w->opts.clock_domain != TRACE_CLOCK_UNKNOWN)
    json_object_set_string_member (meta, "clock-domain", clock_domain_name (w->opts.clock_domain));
  if (w->clock_markers->len > 0)
    json_object_set_member (meta, "tracepipe-clock-markers", clock_markers_node (w));
  root = json_node_init_object (json_node_alloc (), meta);
  json_generator_set_root (gen, root);
  text = trace_json_text_escape_controls (json_generator_to_data (gen, NULL));
  g_string_append (w->buf, ",\n\"metadata\":");
  g_string_append (w->buf, text);
}
