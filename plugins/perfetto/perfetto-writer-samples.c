/* tracepipe - Perfetto writer: CPU-profile samples as callstack samples
 *
 * Stack nodes (a function in a call tree, with its parent) become interned
 * frames; a sampled node becomes an interned callstack (outermost frame
 * first) and each sample a PerfSample packet referring to it, which
 * trace_processor imports as a CPU profile the UI draws as a flame graph.
 * PerfSample carries pid and tid itself and nanosecond timestamps (unlike
 * Chrome's StreamingProfilePacket, which needs one sequence per thread
 * and microsecond deltas), and has been imported by trace_processor for
 * years (unlike the newer StackSample). Frames and callstacks are interned
 * when first sampled, so nodes that are never sampled cost nothing.
 *
 * Each script url is a mapping (its path is the url); a frame's rel_pc is
 * its node id, which keeps nodes apart and lets a reader rebuild the tree.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <string.h>

/* Deeper stacks lose their outermost frames (and a cycle of parents in
 * bad input ends here). */
#define PF_MAX_STACK_DEPTH 1024

void
pf_samples_init (PerfettoWriter *w)
{
  w->stack_nodes = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  w->mappings = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  w->next_frame_iid = 1;
  w->next_mapping_iid = 1;
}

void
pf_samples_free (PerfettoWriter *w)
{
  g_hash_table_unref (w->stack_nodes);
  g_hash_table_unref (w->mappings);
}

/**
 * pf_write_stack_node:
 * @w: a #PerfettoWriter
 * @batch: the batch of @ev
 * @ev: a stack node; its args `url` (string) and `line` (integer, absent
 *   or -1 for none) are kept, other args (`column`) have no field
 */
void
pf_write_stack_node (PerfettoWriter *w,
                     TraceBatch *batch,
                     const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);
  guint64 id = ev->u.stack_node.id;
  PfStackNode *node = g_hash_table_lookup (w->stack_nodes, &id);
  guint32 url = 0;
  gint64 line = -1;

  for (guint i = 0; i < ev->n_args; i++)
    {
      const char *key = pf_str (w, args[i].key);

      if (g_str_equal (key, "url") && args[i].type == TRACE_ARG_STRING)
        url = args[i].v.s;
      else if (g_str_equal (key, "line") && args[i].type == TRACE_ARG_INT)
        line = args[i].v.i;
    }
  if (node == NULL)
    {
      node = g_new0 (PfStackNode, 1);
      node->id = id;
      g_hash_table_insert (w->stack_nodes, &node->id, node);
    }
  else if (node->parent_id == ev->u.stack_node.parent_id && node->name == ev->name && node->url == url && node->line == line)
    return;
  /* New or redefined: a fresh frame, sent when next sampled. */
  node->parent_id = ev->u.stack_node.parent_id;
  node->name = ev->name;
  node->url = url;
  node->line = line;
  node->frame_iid = w->next_frame_iid++;
  node->frame_generation = node->callstack_generation = 0;
}

static guint64
ensure_mapping (PerfettoWriter *w,
                guint32 url)
{
  PfMapping *m = g_hash_table_lookup (w->mappings, GUINT_TO_POINTER (url));
  Perfetto__Protos__Mapping *msg;

  if (m == NULL)
    {
      m = g_new0 (PfMapping, 1);
      m->iid = w->next_mapping_iid++;
      g_hash_table_insert (w->mappings, GUINT_TO_POINTER (url), m);
    }
  if (m->generation == w->generation)
    return m->iid;
  m->generation = w->generation;
  msg = pf_vec_push (&w->new_mappings);
  perfetto__protos__mapping__init (msg);
  msg->has_iid = TRUE;
  msg->iid = m->iid;
  if (url != 0)
    {
      guint64 path = pf_intern_map_path (w, url);

      /* The pointer is set when the packet is written (the array grows). */
      g_array_append_val (w->mapping_paths, path);
      msg->n_path_string_ids = 1;
    }
  return m->iid;
}

static void
ensure_frame (PerfettoWriter *w,
              PfStackNode *node)
{
  Perfetto__Protos__Frame *frame;
  guint64 mapping;

  if (node->frame_generation == w->generation)
    return;
  node->frame_generation = w->generation;
  mapping = ensure_mapping (w, node->url);
  frame = pf_vec_push (&w->new_frames);
  perfetto__protos__frame__init (frame);
  frame->has_iid = frame->has_mapping_id = frame->has_rel_pc = TRUE;
  frame->iid = node->frame_iid;
  frame->mapping_id = mapping;
  frame->rel_pc = node->id;
  if (node->name != 0)
    {
      frame->has_function_name_id = TRUE;
      frame->function_name_id = pf_intern_function (w, node->name);
    }
  if (node->line >= 0 && node->line <= G_MAXUINT32)
    {
      frame->has_line_number = TRUE;
      frame->line_number = (guint32) node->line;
    }
}

/* Returns: the iid of @leaf's callstack (its frame iid: another table),
 * interned in the packet being built if not yet in this generation */
static guint64
ensure_callstack (PerfettoWriter *w,
                  PfStackNode *leaf)
{
  PfStackNode *chain[PF_MAX_STACK_DEPTH];
  Perfetto__Protos__Callstack *cs;
  guint depth = 0;

  if (leaf->callstack_generation == w->generation)
    return leaf->frame_iid;
  leaf->callstack_generation = w->generation;
  for (PfStackNode *n = leaf; n && depth < PF_MAX_STACK_DEPTH;)
    {
      guint64 parent = n->parent_id;

      chain[depth++] = n;
      n = parent != 0 && parent != n->id ? g_hash_table_lookup (w->stack_nodes, &parent) : NULL;
    }
  cs = pf_vec_push (&w->new_callstacks);
  perfetto__protos__callstack__init (cs);
  cs->has_iid = TRUE;
  cs->iid = leaf->frame_iid;
  cs->n_frame_ids = depth;
  while (depth > 0)
    {
      PfStackNode *n = chain[--depth];

      ensure_frame (w, n);
      g_array_append_val (w->callstack_frames, n->frame_iid);
    }
  w->packet_has_interned = TRUE;
  return cs->iid;
}

/**
 * pf_write_sample:
 * @w: a #PerfettoWriter
 * @ev: a CPU-profile sample
 *
 * The sample's weight is not written: Perfetto's flame graph counts
 * samples, and the interval of a sample is the distance to the next.
 */
void
pf_write_sample (PerfettoWriter *w,
                 const TraceEvent *ev)
{
  Perfetto__Protos__PerfSample sample = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
  guint64 id = ev->u.sample.node_id;
  PfStackNode *leaf = g_hash_table_lookup (w->stack_nodes, &id);

  if (leaf == NULL)
    {
      w->stats.dropped_unknown_stack_node++;
      return;
    }
  pf_packet_begin (w);
  sample.has_callstack_iid = TRUE;
  sample.callstack_iid = ensure_callstack (w, leaf);
  sample.has_pid = sample.has_tid = TRUE;
  sample.tid = ev->tid >= 0 ? (guint32) ev->tid : 0;
  sample.pid = ev->pid >= 0 ? (guint32) ev->pid : sample.tid;
  if (ev->cpu >= 0)
    {
      sample.has_cpu = TRUE;
      sample.cpu = (guint32) ev->cpu;
    }
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
  w->pkt.perf_sample = &sample;
  pf_packet_emit (w, ev->ts, TRUE, TRUE);
  w->stats.samples++;
}
