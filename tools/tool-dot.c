/* tracepipe tools - Graphviz pictures of a pipeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "tool-util.h"

/* Inside a quoted record label, these characters structure the record
 * and must be escaped to appear as text. */
static void
append_record_text (GString *out,
                    const char *text)
{
  for (const char *c = text; *c; c++)
    {
      if (strchr ("{}|<>\"\\ ", *c) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *c);
    }
}

static void
append_pad_column (GString *out,
                   TraceElement *element,
                   TracePadDirection direction)
{
  guint index = 0, n = 0;

  g_string_append (out, "{");
  for (const GList *l = trace_element_get_pads (element); l; l = l->next, index++)
    {
      if (trace_pad_get_direction (l->data) != direction)
        continue;
      g_string_append_printf (out, "%s<p%u> ", n++ ? "|" : "", index);
      append_record_text (out, trace_pad_get_name (l->data));
    }
  g_string_append (out, "}|");
}

static void
append_node (GString *out,
             TraceElement *element,
             guint id)
{
  g_autoptr (GPtrArray) props = tool_non_default_properties (G_OBJECT (element));
  const char *factory = trace_element_get_factory_name (element);

  g_string_append_printf (out, "  e%u [label=\"{", id);
  if (trace_element_get_n_sink_pads (element) > 0)
    append_pad_column (out, element, TRACE_PAD_SINK);
  append_record_text (out, trace_element_get_name (element));
  if (factory != NULL)
    {
      g_string_append (out, "\\n(");
      append_record_text (out, factory);
      g_string_append (out, ")");
    }
  for (guint i = 0; i < props->len; i++)
    {
      g_string_append (out, "\\n");
      append_record_text (out, g_ptr_array_index (props, i));
    }
  if (trace_element_get_n_src_pads (element) > 0)
    {
      g_string_append (out, "|");
      append_pad_column (out, element, TRACE_PAD_SRC);
      g_string_truncate (out, out->len - 1); /* the column's trailing '|' */
    }
  g_string_append (out, "}\"];\n");
}

static gint
pad_index (TraceElement *element,
           TracePad *pad)
{
  return g_list_index ((GList *) trace_element_get_pads (element), pad);
}

static void
append_edges (GString *out,
              GList *children,
              TraceElement *element,
              guint id)
{
  for (const GList *l = trace_element_get_pads (element); l; l = l->next)
    {
      TracePad *pad = l->data, *peer = trace_pad_get_peer (pad);
      TraceElement *peer_element = peer ? trace_pad_get_parent_element (peer) : NULL;
      TraceStreamEvent *start;
      TracePadStats stats;
      gint peer_id;

      if (trace_pad_get_direction (pad) != TRACE_PAD_SRC || peer_element == NULL ||
          (peer_id = g_list_index (children, peer_element)) < 0)
        continue;
      trace_pad_get_stats (pad, &stats);
      g_string_append_printf (out, "  e%u:p%d -> e%d:p%d [label=\"%s\\n%" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " batches",
                              id, pad_index (element, pad), peer_id, pad_index (peer_element, peer),
                              trace_pad_get_media_type (pad), stats.events, stats.batches);
      start = trace_pad_get_sticky_stream_start (pad);
      if (start != NULL && start->info.format != NULL)
        g_string_append_printf (out, "\\n%s", start->info.format);
      g_string_append (out, "\"];\n");
    }
}

/**
 * tool_pipeline_to_dot:
 * @pipeline: a pipeline
 *
 * Returns: a Graphviz digraph: one record per element (name, factory,
 *   properties that differ from their defaults, pads as ports), one edge
 *   per link labelled with the media type and what went through it
 */
char *
tool_pipeline_to_dot (TraceElement *pipeline)
{
  GString *out = g_string_new (NULL);
  g_autoptr (GList) children = g_list_copy ((GList *) trace_bin_get_children (TRACE_BIN (pipeline)));
  guint id = 0;

  g_string_append (out, "digraph pipeline {\n"
                        "  rankdir=LR;\n"
                        "  fontname=\"sans\";\n"
                        "  node [shape=record, style=rounded, fontname=\"sans\", fontsize=10];\n"
                        "  edge [fontname=\"monospace\", fontsize=9];\n");
  g_string_append_printf (out, "  label=\"%s (%s)\";\n", trace_element_get_name (pipeline),
                          trace_state_to_string (trace_element_get_state (pipeline)));
  for (GList *l = children; l; l = l->next)
    append_node (out, l->data, id++);
  id = 0;
  for (GList *l = children; l; l = l->next)
    append_edges (out, children, l->data, id++);
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

/**
 * tool_write_dot:
 * @pipeline: a pipeline
 * @path: the file to write
 * @error: where to say why it could not be written
 *
 * Returns: %TRUE on success
 */
gboolean
tool_write_dot (TraceElement *pipeline,
                const char *path,
                GError **error)
{
  g_autofree char *dot = tool_pipeline_to_dot (pipeline);

  return g_file_set_contents (path, dot, -1, error);
}

/**
 * tool_dump_dot_to_env_dir:
 * @pipeline: a pipeline
 * @tag: what happened (`NULL_READY`, `error`), part of the file name
 *
 * Writes `trace-launch.PID.SEQ.TAG.dot` into the folder named by
 * `TRACEPIPE_DEBUG_DUMP_DOT_DIR`, when it is set; SEQ keeps the files in
 * the order they were written.
 */
void
tool_dump_dot_to_env_dir (TraceElement *pipeline,
                          const char *tag)
{
  static guint seq = 0;
  const char *dir = g_getenv ("TRACEPIPE_DEBUG_DUMP_DOT_DIR");
  g_autofree char *name = NULL, *path = NULL;
  g_autoptr (GError) error = NULL;

  if (dir == NULL || *dir == '\0')
    return;
  name = g_strdup_printf ("trace-launch.%d.%03u.%s.dot", (int) getpid (), seq++, tag);
  path = g_build_filename (dir, name, NULL);
  if (!tool_write_dot (pipeline, path, &error))
    g_printerr ("WARNING: could not write the pipeline graph: %s\n", error->message);
}
