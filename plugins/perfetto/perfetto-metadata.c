/* tracepipe - Perfetto plugin: trace-wide metadata
 *
 * A stream's metadata (Chrome JSON's top-level "metadata" object, see
 * TraceStreamInfo.metadata) is written as the metadata of a Chrome event
 * bundle, the form Chrome itself gives it in Perfetto traces:
 * trace_processor lists each member in its metadata table as `cr-NAME`
 * (the JSON importer lists them as `json_metadata.NAME`: no Perfetto
 * record gives that key). Strings, booleans and integers keep their type;
 * other numbers, objects and arrays go as their JSON text; nulls are left
 * out, as trace_processor's JSON importer leaves them out.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"
#include "perfetto-writer-private.h"

#include <json-glib/json-glib.h>
#include <math.h>

/* The members after which the rest is dropped, as the JSON reader does. */
#define PERFETTO_MAX_METADATA 256

/**
 * perfetto_writer_set_metadata:
 * @w: a #PerfettoWriter
 * @metadata: (nullable): the stream's metadata, the text of a JSON object
 *
 * Sets the metadata written when the writer finishes.
 */
void
perfetto_writer_set_metadata (PerfettoWriter *w,
                              const char *metadata)
{
  g_return_if_fail (w != NULL);

  g_free (w->metadata);
  w->metadata = g_strdup (metadata);
}

/* Returns: whether @node went into @m (a null has no value to write) */
static gboolean
metadata_value (Perfetto__Protos__ChromeMetadata *m,
                JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  if (JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  if (type == G_TYPE_STRING)
    {
      m->value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_STRING_VALUE;
      m->string_value = g_strdup (json_node_get_string (node));
    }
  else if (type == G_TYPE_BOOLEAN)
    {
      m->value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_BOOL_VALUE;
      m->bool_value = json_node_get_boolean (node);
    }
  else if (type == G_TYPE_INT64 || (type == G_TYPE_DOUBLE && json_node_get_double (node) == trunc (json_node_get_double (node)) && fabs (json_node_get_double (node)) < 9.2e18))
    {
      m->value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_INT_VALUE;
      m->int_value = type == G_TYPE_INT64 ? json_node_get_int (node) : (gint64) json_node_get_double (node);
    }
  else
    {
      m->value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_JSON_VALUE;
      m->json_value = trace_json_text_escape_controls (json_to_string (node, FALSE));
    }
  return TRUE;
}

static void
metadata_entry_clear (Perfetto__Protos__ChromeMetadata *m)
{
  g_free (m->name);
  if (m->value_case == PERFETTO__PROTOS__CHROME_METADATA__VALUE_STRING_VALUE)
    g_free (m->string_value);
  else if (m->value_case == PERFETTO__PROTOS__CHROME_METADATA__VALUE_JSON_VALUE)
    g_free (m->json_value);
}

/**
 * perfetto_write_trace_metadata:
 * @w: a #PerfettoWriter
 *
 * Writes the metadata set with perfetto_writer_set_metadata() as one
 * packet, if it has any member with a value.
 */
void
perfetto_write_trace_metadata (PerfettoWriter *w)
{
  Perfetto__Protos__ChromeEventBundle bundle = PERFETTO__PROTOS__CHROME_EVENT_BUNDLE__INIT;
  Perfetto__Protos__ChromeMetadata entries[PERFETTO_MAX_METADATA];
  Perfetto__Protos__ChromeMetadata *ptrs[PERFETTO_MAX_METADATA];
  g_autoptr (JsonNode) root = w->metadata ? json_from_string (w->metadata, NULL) : NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  guint n = 0;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  json_object_iter_init_ordered (&iter, json_node_get_object (root));
  while (n < PERFETTO_MAX_METADATA && json_object_iter_next_ordered (&iter, &name, &node))
    {
      perfetto__protos__chrome_metadata__init (&entries[n]);
      if (!metadata_value (&entries[n], node))
        continue;
      entries[n].name = g_strdup (name);
      ptrs[n] = &entries[n];
      n++;
    }
  if (n == 0)
    return;
  bundle.n_metadata = n;
  bundle.metadata = ptrs;
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_EVENTS;
  w->pkt.chrome_events = &bundle;
  perfetto_packet_emit (w, 0, FALSE, FALSE);
  for (guint i = 0; i < n; i++)
    metadata_entry_clear (&entries[i]);
}

/* ---- reading ---- */

static JsonNode *
metadata_node (const Perfetto__Protos__ChromeMetadata *m)
{
  JsonNode *node = NULL;

  switch (m->value_case)
    {
    case PERFETTO__PROTOS__CHROME_METADATA__VALUE_STRING_VALUE:
      return json_node_init_string (json_node_alloc (), m->string_value);
    case PERFETTO__PROTOS__CHROME_METADATA__VALUE_BOOL_VALUE:
      return json_node_init_boolean (json_node_alloc (), m->bool_value);
    case PERFETTO__PROTOS__CHROME_METADATA__VALUE_INT_VALUE:
      return json_node_init_int (json_node_alloc (), m->int_value);
    case PERFETTO__PROTOS__CHROME_METADATA__VALUE_JSON_VALUE:
      node = m->json_value ? json_from_string (m->json_value, NULL) : NULL;
      /* not JSON after all: kept as the text it is */
      return node ? node : json_node_init_string (json_node_alloc (), m->json_value);
    default:
      return NULL;
    }
}

/**
 * perfetto_reader_chrome_events:
 * @r: a #PerfettoReader
 * @bundle: a Chrome event bundle
 *
 * Adds the bundle's metadata to the stream's (later members replace
 * earlier ones of the same name); the rest of the bundle is unsupported.
 */
void
perfetto_reader_chrome_events (PerfettoReader *r,
                               const Perfetto__Protos__ChromeEventBundle *bundle)
{
  if (bundle->base.n_unknown_fields > 0)
    perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "Chrome event bundle with more than metadata");
  for (gsize i = 0; i < bundle->n_metadata; i++)
    {
      const Perfetto__Protos__ChromeMetadata *m = bundle->metadata[i];
      JsonNode *node = m->name ? metadata_node (m) : NULL;

      if (node == NULL)
        continue;
      if (r->metadata == NULL)
        r->metadata = json_object_new ();
      if (json_object_get_size (r->metadata) < PERFETTO_MAX_METADATA || json_object_has_member (r->metadata, m->name))
        json_object_set_member (r->metadata, m->name, node);
      else
        json_node_unref (node);
    }
}

/**
 * perfetto_reader_get_metadata:
 * @r: a #PerfettoReader
 *
 * Returns: (transfer full) (nullable): the metadata read so far, as the
 *   text of a JSON object, or %NULL when there is none
 */
char *
perfetto_reader_get_metadata (PerfettoReader *r)
{
  g_autoptr (JsonNode) node = NULL;

  g_return_val_if_fail (r != NULL, NULL);

  if (r->metadata == NULL)
    return NULL;
  node = json_node_init_object (json_node_alloc (), r->metadata);
  return trace_json_text_escape_controls (json_to_string (node, FALSE));
}
