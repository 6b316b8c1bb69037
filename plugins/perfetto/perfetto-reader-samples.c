/* tracepipe - Perfetto reader: CPU-profile samples
 *
 * Callstack samples become the stack nodes of their frames (each node
 * once, when first sampled) and a sample of the leaf: Chrome's
 * StreamingProfilePacket (the thread from the sequence's
 * ThreadDescriptor, microsecond deltas) and PerfSample (traced_perf's:
 * pid, tid, cpu, timebase count in the sample, kept as args).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"

/* One stack node per distinct frame under a parent, as trace_processor
 * makes one callsite per (parent, frame): the node remembers both. */
typedef struct
{
  guint64 parent;
  guint64 frame;
} PerfettoRNode;

static guint64
mix (guint64 hash,
     guint64 value)
{
  hash = (hash ^ value) * 0x9E3779B97F4A7C15ull;
  return hash ^ (hash >> 29);
}

/* A path given in components is named as trace_processor names it, each
 * component after a '/'; a single one (a whole path, a url) is kept as
 * it is, which it reads the same. */
static guint32
mapping_path (PerfettoReader *r,
              PerfettoSeq *seq,
              const Perfetto__Protos__Mapping *m)
{
  g_autoptr (GString) path = NULL;

  if (m->n_path_string_ids == 0)
    return 0;
  if (m->n_path_string_ids == 1)
    return perfetto_reader_lookup_string (r, seq->map_paths, m->path_string_ids[0]);
  path = g_string_new (NULL);
  for (gsize i = 0; i < m->n_path_string_ids; i++)
    {
      guint32 id = perfetto_reader_lookup_string (r, seq->map_paths, m->path_string_ids[i]);

      if (id == 0)
        break;
      g_string_append_c (path, '/');
      g_string_append (path, trace_string_pool_get (r->pool, id));
    }
  return trace_string_pool_intern_len (r->pool, path->str, path->len);
}

/* trace_processor tells mappings apart by their addresses and offsets as
 * well as their path, and keeps a mapping with an address range apart
 * for each process (one library loaded by two processes is two
 * mappings, and its frames two frames in each). */
static void
intern_mapping (PerfettoReader *r,
                PerfettoSeq *seq,
                const Perfetto__Protos__Mapping *m)
{
  PerfettoRMapping *mapping = g_new0 (PerfettoRMapping, 1);

  mapping->path = mapping_path (r, seq, m);
  mapping->identity = mix (mix (mix (mix (mix (mix (0, mapping->path), m->start), m->end), m->exact_offset), m->start_offset),
                           m->load_bias);
  mapping->per_process = m->end != m->start;
  g_hash_table_replace (perfetto_seq_table (&seq->mappings, g_free), perfetto_int64_dup ((gint64) m->iid), mapping);
}

static void
intern_frame (PerfettoReader *r,
              PerfettoSeq *seq,
              const Perfetto__Protos__Frame *f)
{
  PerfettoRFrame *frame = g_new0 (PerfettoRFrame, 1);
  guint64 mapping_identity = 0;

  if (f->function_name_id != 0)
    frame->function = perfetto_reader_lookup_string (r, seq->functions, f->function_name_id);
  if (f->mapping_id != 0)
    {
      PerfettoRMapping *mapping = perfetto_seq_lookup (seq->mappings, f->mapping_id);

      if (mapping != NULL)
        {
          frame->url = mapping->path;
          frame->per_process = mapping->per_process;
          mapping_identity = mapping->identity;
        }
      else
        perfetto_reader_skip (r, &r->stats.unknown_iid, 1, "interned id not in its table");
    }
  frame->rel_pc = f->rel_pc;
  frame->identity = mix (mix (mix (1, mapping_identity), frame->function), f->rel_pc);
  frame->has_line = f->has_line_number;
  frame->line = f->line_number;
  g_hash_table_replace (perfetto_seq_table (&seq->frames, g_free), perfetto_int64_dup ((gint64) f->iid), frame);
}

/* Frames, callstacks and mappings of @d into @seq's tables. */
void
perfetto_reader_intern_profiling (PerfettoReader *r,
                                  PerfettoSeq *seq,
                                  const PerfettoInternedData *d)
{
  for (gsize i = 0; i < d->n_mappings; i++)
    intern_mapping (r, seq, d->mappings[i]);
  for (gsize i = 0; i < d->n_frames; i++)
    intern_frame (r, seq, d->frames[i]);
  for (gsize i = 0; i < d->n_callstacks; i++)
    {
      const Perfetto__Protos__Callstack *cs = d->callstacks[i];
      GArray *ids = g_array_sized_new (FALSE, FALSE, sizeof (guint64), cs->n_frame_ids);

      g_array_append_vals (ids, cs->frame_ids, cs->n_frame_ids);
      g_hash_table_replace (perfetto_seq_table (&seq->callstacks, (GDestroyNotify) g_array_unref), perfetto_int64_dup ((gint64) cs->iid), ids);
    }
}

/* A stack node's id is the frame's rel_pc (tracepipe writes node ids
 * there); a rel_pc already taken by another frame or under another
 * parent (native frames of foreign traces, one library in two
 * processes), or 0 (which names no node), gets an id of its own made of
 * parent and frame. */
static guint64
sample_node (PerfettoReader *r,
             PerfettoSeq *seq,
             guint64 frame_iid,
             guint64 parent,
             gint64 pid,
             gint64 tid,
             gint64 ts)
{
  PerfettoRFrame *frame = perfetto_seq_lookup (seq->frames, frame_iid);
  PerfettoRNode *node;
  guint64 id, identity;
  TraceEvent *ev;

  if (frame == NULL)
    {
      perfetto_reader_skip (r, &r->stats.unknown_iid, 1, "frame iid not interned");
      return parent;
    }
  identity = frame->per_process ? mix (frame->identity, (guint64) pid) : frame->identity;
  id = frame->rel_pc;
  node = g_hash_table_lookup (r->stack_nodes, &id);
  if (id == 0 || (node && (node->parent != parent || node->frame != identity)))
    {
      id = mix (parent, identity) | (G_GUINT64_CONSTANT (1) << 63);
      node = g_hash_table_lookup (r->stack_nodes, &id);
    }
  if (node)
    return id;
  node = g_new (PerfettoRNode, 1);
  node->parent = parent;
  node->frame = identity;
  g_hash_table_insert (r->stack_nodes, perfetto_int64_dup ((gint64) id), node);
  ev = perfetto_reader_emit (r, TRACE_EVENT_STACK_NODE, ts);
  ev->pid = pid;
  ev->tid = tid;
  ev->name = frame->function;
  ev->u.stack_node.id = id;
  ev->u.stack_node.parent_id = parent;
  if (frame->url != 0)
    trace_batch_add_arg (r->batch, ev, r->k_url, TRACE_ARG_STRING)->v.s = frame->url;
  if (frame->has_line)
    trace_batch_add_arg (r->batch, ev, r->k_line, TRACE_ARG_INT)->v.i = frame->line;
  return id;
}

/* Returns: the sample event of callstack @iid of @seq, %NULL (counted)
 * when @seq has no such callstack */
static TraceEvent *
emit_sample (PerfettoReader *r,
             PerfettoSeq *seq,
             guint64 iid,
             gint64 pid,
             gint64 tid,
             gint64 ts)
{
  GArray *frames = perfetto_seq_lookup (seq->callstacks, iid);
  guint64 node = 0;
  TraceEvent *ev;

  if (frames == NULL)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "callstack iid not interned");
      return NULL;
    }
  for (guint i = 0; i < frames->len; i++)
    node = sample_node (r, seq, g_array_index (frames, guint64, i), node, pid, tid, ts);
  ev = perfetto_reader_emit (r, TRACE_EVENT_SAMPLE, ts);
  ev->pid = pid;
  ev->tid = tid;
  ev->u.sample.node_id = node;
  return ev;
}

const char *const perfetto_perf_arg_names[PERFETTO_PERF_N_ARGS] = {
  [PERFETTO_PERF_TIMEBASE_COUNT] = "timebase_count",
  [PERFETTO_PERF_CPU_MODE] = "cpu_mode",
  [PERFETTO_PERF_UNWIND_ERROR] = "unwind_error",
  [PERFETTO_PERF_SKIPPED_REASON] = "sample_skipped_reason",
};

static void
add_perf_arg (PerfettoReader *r,
              TraceEvent *ev,
              PerfettoPerfArg arg,
              gboolean has,
              guint64 value)
{
  if (has)
    trace_batch_add_arg (r->batch, ev, r->k_perf_args[arg], TRACE_ARG_INT)->v.i = (gint64) value;
}

/* A sample without a callstack (its unwinding failed or was skipped)
 * still counts its timebase: a sample event of no stack node (0). */
void
perfetto_reader_perf_sample (PerfettoReader *r,
                             PerfettoSeq *seq,
                             const Perfetto__Protos__PerfSample *s,
                             gint64 ts)
{
  TraceEvent *ev;

  if (s->has_producer_event || s->kernel_records_lost > 0)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "perf sample of a producer event or of lost kernel records");
      return;
    }
  if (s->has_callstack_iid)
    ev = emit_sample (r, seq, s->callstack_iid, s->pid, s->tid, ts);
  else
    {
      ev = perfetto_reader_emit (r, TRACE_EVENT_SAMPLE, ts);
      ev->pid = s->pid;
      ev->tid = s->tid;
      ev->u.sample.node_id = 0;
    }
  if (ev == NULL)
    return;
  if (s->has_cpu)
    ev->cpu = (gint32) s->cpu;
  add_perf_arg (r, ev, PERFETTO_PERF_TIMEBASE_COUNT, s->has_timebase_count, s->timebase_count);
  add_perf_arg (r, ev, PERFETTO_PERF_CPU_MODE, s->has_cpu_mode, s->cpu_mode);
  add_perf_arg (r, ev, PERFETTO_PERF_UNWIND_ERROR, s->has_unwind_error, s->unwind_error);
  add_perf_arg (r, ev, PERFETTO_PERF_SKIPPED_REASON, s->has_sample_skipped_reason, s->sample_skipped_reason);
  if (seq->perf_timebase != 0)
    trace_batch_add_arg (r->batch, ev, r->k_perf_timebase, TRACE_ARG_STRING)->v.s = seq->perf_timebase;
  if (s->n_follower_counts > 0)
    perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "follower counts of a perf sample (the sample is kept)");
}

void
perfetto_reader_thread_descriptor (PerfettoSeq *seq,
                                   const Perfetto__Protos__ThreadDescriptor *td)
{
  seq->has_thread = TRUE;
  seq->tid = td->tid;
  seq->pid = td->has_pid ? td->pid : td->tid;
  seq->time_us = td->reference_timestamp_us;
  seq->thread_time_us = td->reference_thread_time_us;
  seq->instructions = td->reference_thread_instruction_count;
  seq->thread_track.kind = PERFETTO_RTRACK_THREAD;
  seq->thread_track.pid = seq->pid;
  seq->thread_track.tid = seq->tid;
}

/* Chrome's samples: times are microsecond deltas, each from the previous
 * sample of the sequence (the first from its ThreadDescriptor), read as
 * the stream's clock (tracepipe ties MONOTONIC to it one to one). */
void
perfetto_reader_streaming_profile (PerfettoReader *r,
                                   PerfettoSeq *seq,
                                   const Perfetto__Protos__StreamingProfilePacket *sp)
{
  if (!seq->has_thread || sp->n_timestamp_delta_us < sp->n_callstack_iid)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, sp->n_callstack_iid, "streaming profile samples without a thread descriptor or their timestamps");
      return;
    }
  for (gsize i = 0; i < sp->n_callstack_iid; i++)
    {
      seq->time_us = trace_time_add_saturated (seq->time_us, sp->timestamp_delta_us[i]);
      emit_sample (r, seq, sp->callstack_iid[i], seq->pid, seq->tid, perfetto_us_to_ns (seq->time_us));
    }
  for (gsize i = sp->n_callstack_iid; i < sp->n_timestamp_delta_us; i++)
    seq->time_us = trace_time_add_saturated (seq->time_us, sp->timestamp_delta_us[i]);
}
