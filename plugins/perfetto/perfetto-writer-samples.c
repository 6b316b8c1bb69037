/* tracepipe - Perfetto writer: CPU-profile samples as Chrome writes them
 *
 * Stack nodes (a function in a call tree, with its parent) become interned
 * frames; a sampled node becomes an interned callstack (outermost frame
 * first) and samples StreamingProfilePacket entries referring to it: what
 * Chrome writes, and what trace_processor imports into the same table
 * (cpu_profile_stack_sample) as the samples of a Chrome JSON trace.
 * Samples of traced_perf (PerfSample: with a timebase count, cpu mode,
 * unwind error or skip reason) go back as PerfSample packets, on a
 * sequence of their own, with the same interned frames and callstacks;
 * a Chrome JSON sample as a PerfSample would get a `cpu-clock` counter
 * track its original has not.
 *
 * StreamingProfilePacket names no thread: each sampled thread gets a
 * packet sequence of its own, opened by a ThreadDescriptor packet (pid,
 * tid, the reference time) that clears the sequence's state, with its
 * own interning tables. Timestamps are microsecond deltas from the
 * previous sample, which trace_processor reads in the MONOTONIC clock:
 * one ClockSnapshot ties MONOTONIC to the stream's clock one to one.
 * Samples wait (PERFETTO_SAMPLES_PER_PACKET at most) for their packet, written
 * at the end of each batch; what a sequence interned is capped
 * (PERFETTO_SAMPLE_SEQ_MAX_SENT), past which the sequence starts over.
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
#define PERFETTO_MAX_STACK_DEPTH 1024
/* Samples of one StreamingProfilePacket at most (Chrome's are smaller). */
#define PERFETTO_SAMPLES_PER_PACKET 1000
/* Interned entries a sampled thread's sequence keeps before it starts
 * over (a few MB of hash table). */
#define PERFETTO_SAMPLE_SEQ_MAX_SENT 65536

/* What a sequence has sent, in one set: the kind in the top bits. */
#define PERFETTO_SENT_FRAME (G_GUINT64_CONSTANT (1) << 62)
#define PERFETTO_SENT_CALLSTACK (G_GUINT64_CONSTANT (2) << 62)
#define PERFETTO_SENT_FUNCTION (G_GUINT64_CONSTANT (3) << 62)
#define PERFETTO_SENT_MAPPING G_GUINT64_CONSTANT (0)

static void
sample_seq_free (gpointer data)
{
  PerfettoSampleSeq *seq = data;

  g_hash_table_unref (seq->sent);
  g_array_unref (seq->iids);
  g_array_unref (seq->deltas);
  g_free (seq);
}

void
perfetto_samples_init (PerfettoWriter *w)
{
  w->stack_nodes = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  w->sample_seqs = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, NULL, sample_seq_free);
  w->perf_seqs = g_hash_table_new_full (NULL, NULL, NULL, sample_seq_free);
  w->next_frame_iid = 1;
  w->next_sample_seq = w->opts.sequence_id + 1;
}

void
perfetto_samples_free (PerfettoWriter *w)
{
  g_hash_table_unref (w->stack_nodes);
  g_hash_table_unref (w->sample_seqs);
  g_hash_table_unref (w->perf_seqs);
}

/**
 * perfetto_write_stack_node:
 * @w: a #PerfettoWriter
 * @batch: the batch of @ev
 * @ev: a stack node; its args `url` (string) and `line` (integer, absent
 *   or -1 for none) are kept, other args (`column`) have no field
 */
void
perfetto_write_stack_node (PerfettoWriter *w,
                           TraceBatch *batch,
                           const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);
  guint64 id = ev->u.stack_node.id;
  PerfettoStackNode *node = g_hash_table_lookup (w->stack_nodes, &id);
  guint32 url = 0;
  gint64 line = -1;

  for (guint i = 0; i < ev->n_args; i++)
    {
      const char *key = perfetto_str (w, args[i].key);

      if (g_str_equal (key, "url") && (args[i].type == TRACE_ARG_STRING || args[i].type == TRACE_ARG_TEXT))
        url = trace_batch_intern_arg (batch, &args[i]);
      else if (g_str_equal (key, "line") && args[i].type == TRACE_ARG_INT)
        line = args[i].v.i;
    }
  if (node == NULL)
    {
      node = g_new0 (PerfettoStackNode, 1);
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
}

/* Returns: whether @seq had sent @key; adds it */
static gboolean
seq_test_and_add (PerfettoSampleSeq *seq,
                  guint64 key)
{
  gpointer k = GSIZE_TO_POINTER ((gsize) key);

  if (g_hash_table_contains (seq->sent, k))
    return TRUE;
  g_hash_table_add (seq->sent, k);
  return FALSE;
}

static void
push_string (PerfettoWriter *w,
             PerfettoVec *vec,
             guint32 id)
{
  Perfetto__Protos__InternedString *s = perfetto_vec_push (vec);

  perfetto__protos__interned_string__init (s);
  s->has_iid = s->has_str = TRUE;
  s->iid = perfetto_iid (w, id);
  s->str.data = (guint8 *) perfetto_str (w, id);
  s->str.len = trace_string_pool_get_length (w->pool, id);
}

/* Returns: the mapping iid of @url: 1 for none (url 0 has a mapping
 * too), else its string's iid + 1 */
static guint64
seq_mapping (PerfettoWriter *w,
             PerfettoSampleSeq *seq,
             guint32 url)
{
  guint64 iid = url == 0 ? 1 : perfetto_iid (w, url) + 1;
  Perfetto__Protos__Mapping *msg;

  if (seq_test_and_add (seq, PERFETTO_SENT_MAPPING | iid))
    return iid;
  msg = perfetto_vec_push (&w->new_mappings);
  perfetto__protos__mapping__init (msg);
  msg->has_iid = TRUE;
  msg->iid = iid;
  if (url != 0)
    {
      guint64 path = perfetto_iid (w, url);

      push_string (w, &w->new_map_paths, url);
      /* The pointer is set when the packet is written (the array grows). */
      g_array_append_val (w->mapping_paths, path);
      msg->n_path_string_ids = 1;
    }
  return iid;
}

static void
seq_frame (PerfettoWriter *w,
           PerfettoSampleSeq *seq,
           PerfettoStackNode *node)
{
  Perfetto__Protos__Frame *frame;
  guint64 mapping;

  if (seq_test_and_add (seq, PERFETTO_SENT_FRAME | node->frame_iid))
    return;
  mapping = seq_mapping (w, seq, node->url);
  frame = perfetto_vec_push (&w->new_frames);
  perfetto__protos__frame__init (frame);
  frame->has_iid = frame->has_mapping_id = frame->has_rel_pc = TRUE;
  frame->iid = node->frame_iid;
  frame->mapping_id = mapping;
  frame->rel_pc = node->id;
  if (node->name != 0)
    {
      frame->has_function_name_id = TRUE;
      frame->function_name_id = perfetto_iid (w, node->name);
      if (!seq_test_and_add (seq, PERFETTO_SENT_FUNCTION | node->name))
        push_string (w, &w->new_functions, node->name);
    }
  if (node->line >= 0 && node->line <= G_MAXUINT32)
    {
      frame->has_line_number = TRUE;
      frame->line_number = (guint32) node->line;
    }
}

/* Interns @leaf's callstack (its iid: the leaf's frame iid, in another
 * table) in the packet being built, if @seq has not sent it. */
static void
seq_callstack (PerfettoWriter *w,
               PerfettoSampleSeq *seq,
               PerfettoStackNode *leaf)
{
  PerfettoStackNode *chain[PERFETTO_MAX_STACK_DEPTH];
  Perfetto__Protos__Callstack *cs;
  guint depth = 0;

  if (seq_test_and_add (seq, PERFETTO_SENT_CALLSTACK | leaf->frame_iid))
    return;
  for (PerfettoStackNode *n = leaf; n && depth < PERFETTO_MAX_STACK_DEPTH;)
    {
      guint64 parent = n->parent_id;

      chain[depth++] = n;
      n = parent != 0 && parent != n->id ? g_hash_table_lookup (w->stack_nodes, &parent) : NULL;
    }
  cs = perfetto_vec_push (&w->new_callstacks);
  perfetto__protos__callstack__init (cs);
  cs->has_iid = TRUE;
  cs->iid = leaf->frame_iid;
  cs->n_frame_ids = depth;
  while (depth > 0)
    {
      PerfettoStackNode *n = chain[--depth];

      seq_frame (w, seq, n);
      g_array_append_val (w->callstack_frames, n->frame_iid);
    }
  w->packet_has_interned = TRUE;
}

/* Writes the packet built in w->pkt on @seq. */
static void
seq_emit (PerfettoWriter *w,
          PerfettoSampleSeq *seq,
          guint32 flags)
{
  w->pkt.has_trusted_packet_sequence_id = TRUE;
  w->pkt.trusted_packet_sequence_id = seq->seq_id;
  w->pkt.sequence_flags = flags;
  perfetto_packet_emit (w, 0, FALSE, (flags & PERFETTO_SEQ_CLEARED) == 0);
}

/* Writes the samples waiting on @seq, with the interned data of the
 * packet being built (if any: they are @seq's). */
static void
seq_flush (PerfettoWriter *w,
           PerfettoSampleSeq *seq)
{
  Perfetto__Protos__StreamingProfilePacket sp = PERFETTO__PROTOS__STREAMING_PROFILE_PACKET__INIT;

  if (seq->iids->len == 0 && !w->packet_has_interned)
    return;
  sp.n_callstack_iid = seq->iids->len;
  sp.callstack_iid = (guint64 *) seq->iids->data;
  sp.n_timestamp_delta_us = seq->deltas->len;
  sp.timestamp_delta_us = (gint64 *) seq->deltas->data;
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_STREAMING_PROFILE_PACKET;
  w->pkt.streaming_profile_packet = &sp;
  seq_emit (w, seq, 0);
  g_array_set_size (seq->iids, 0);
  g_array_set_size (seq->deltas, 0);
}

/* trace_processor reads StreamingProfilePacket times as MONOTONIC: one
 * snapshot says MONOTONIC is the stream's clock (restating the stream's
 * clock as the trace's, as the header does). */
static void
tie_monotonic (PerfettoWriter *w,
               gint64 ts)
{
  guint32 ids[2] = { w->builtin_clock, PERFETTO_CLOCK_MONOTONIC };
  gint64 values[2] = { ts, ts };

  w->sample_clock_tied = TRUE;
  if (w->builtin_clock == PERFETTO_CLOCK_MONOTONIC)
    return;
  perfetto_write_clock_snapshot (w, ids, values, TRUE);
}

/* Clears @seq's state: its ThreadDescriptor, starting its times at @us. */
static void
seq_describe (PerfettoWriter *w,
              PerfettoSampleSeq *seq,
              gint64 us)
{
  Perfetto__Protos__ThreadDescriptor td = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;

  if (!w->sample_clock_tied)
    tie_monotonic (w, us * 1000);
  if (seq->described)
    {
      seq_flush (w, seq);
      w->stats.sample_state_resets++;
    }
  g_hash_table_remove_all (seq->sent);
  td.has_pid = td.has_tid = td.has_reference_timestamp_us = TRUE;
  td.pid = perfetto_id (w, seq->pid);
  td.tid = perfetto_id (w, seq->tid);
  td.reference_timestamp_us = us;
  w->pkt.thread_descriptor = &td;
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_THREAD_DESCRIPTOR;
  /* Parsed at its own time (it names the thread then). */
  w->pkt.has_timestamp = w->pkt.has_timestamp_clock_id = TRUE;
  w->pkt.timestamp = (guint64) us * 1000;
  w->pkt.timestamp_clock_id = w->builtin_clock;
  w->pkt.has_first_packet_on_sequence = w->pkt.first_packet_on_sequence = !seq->described;
  seq_emit (w, seq, PERFETTO_SEQ_CLEARED);
  seq->described = TRUE;
  seq->last_us = us;
}

static PerfettoSampleSeq *
sample_seq_new (PerfettoWriter *w,
                gint64 pid,
                gint64 tid)
{
  PerfettoSampleSeq *seq = g_new0 (PerfettoSampleSeq, 1);

  seq->key = (PerfettoKey){ pid, tid, 0, 0 };
  seq->pid = pid;
  seq->tid = tid;
  seq->seq_id = w->next_sample_seq++;
  seq->sent = g_hash_table_new (NULL, NULL);
  seq->iids = g_array_new (FALSE, FALSE, sizeof (guint64));
  seq->deltas = g_array_new (FALSE, FALSE, sizeof (gint64));
  return seq;
}

static PerfettoSampleSeq *
sample_seq (PerfettoWriter *w,
            gint64 pid,
            gint64 tid)
{
  PerfettoKey key = { pid, tid, 0, 0 };
  PerfettoSampleSeq *seq = g_hash_table_lookup (w->sample_seqs, &key);

  if (seq || g_hash_table_size (w->sample_seqs) >= w->opts.max_threads)
    return seq;
  seq = sample_seq_new (w, pid, tid);
  g_hash_table_insert (w->sample_seqs, &seq->key, seq);
  return seq;
}

/* Returns: whether @ev carries PerfSample fields (args named as
 * perfetto_perf_arg_names, or its timebase: a cpu alone, which samples of
 * other sources have too, is not one); their values in @values, -1
 * where absent, the timebase's name in @timebase, 0 where absent */
static gboolean
perf_sample_fields (PerfettoWriter *w,
                    TraceBatch *batch,
                    const TraceEvent *ev,
                    gint64 values[PERFETTO_PERF_N_ARGS],
                    guint32 *timebase)
{
  const TraceArg *args;
  gboolean any = FALSE;

  for (guint f = 0; f < PERFETTO_PERF_N_ARGS; f++)
    values[f] = -1;
  *timebase = 0;
  if (ev->n_args == 0)
    return any;
  args = trace_batch_get_args (batch, ev);
  for (guint i = 0; i < ev->n_args; i++)
    {
      const char *key;

      if (args[i].type == TRACE_ARG_STRING && args[i].v.s != 0 &&
          g_str_equal (perfetto_str (w, args[i].key), PERFETTO_PERF_TIMEBASE_ARG))
        {
          *timebase = args[i].v.s;
          any = TRUE;
        }
      if (args[i].type != TRACE_ARG_INT || args[i].v.i < 0)
        continue;
      key = perfetto_str (w, args[i].key);
      for (guint f = 0; f < PERFETTO_PERF_N_ARGS; f++)
        if (g_str_equal (key, perfetto_perf_arg_names[f]))
          {
            values[f] = args[i].v.i;
            any = TRUE;
          }
    }
  return any;
}

/* Fills the optional fields of @ps from @values (-1: absent). */
static void
perf_sample_set_fields (Perfetto__Protos__PerfSample *ps,
                        const gint64 values[PERFETTO_PERF_N_ARGS])
{
  ps->has_timebase_count = values[PERFETTO_PERF_TIMEBASE_COUNT] >= 0;
  ps->timebase_count = (guint64) values[PERFETTO_PERF_TIMEBASE_COUNT];
  ps->has_cpu_mode = values[PERFETTO_PERF_CPU_MODE] >= 0;
  ps->cpu_mode = (guint32) values[PERFETTO_PERF_CPU_MODE];
  ps->has_unwind_error = values[PERFETTO_PERF_UNWIND_ERROR] >= 0;
  ps->unwind_error = (guint32) values[PERFETTO_PERF_UNWIND_ERROR];
  ps->has_sample_skipped_reason = values[PERFETTO_PERF_SKIPPED_REASON] >= 0;
  ps->sample_skipped_reason = (guint32) values[PERFETTO_PERF_SKIPPED_REASON];
}

/* The sequence of the PerfSamples of @timebase (0: none stated). */
static PerfettoSampleSeq *
perf_seq (PerfettoWriter *w,
          guint32 timebase)
{
  PerfettoSampleSeq *seq = g_hash_table_lookup (w->perf_seqs, GUINT_TO_POINTER (timebase));

  if (seq == NULL)
    {
      seq = sample_seq_new (w, -1, -1);
      seq->timebase = timebase;
      g_hash_table_insert (w->perf_seqs, GUINT_TO_POINTER (timebase), seq);
    }
  return seq;
}

/* A sequence's first packet, and each that clears its state, states the
 * timebase in its defaults (state too): the name trace_processor gives
 * its counter tracks. */
static void
perf_seq_clear (PerfettoWriter *w,
                PerfettoSampleSeq *seq,
                Perfetto__Protos__TracePacketDefaults *defaults,
                Perfetto__Protos__PerfSampleDefaults *perf,
                Perfetto__Protos__PerfEvents__Timebase *timebase,
                Perfetto__Protos__PerfEvents__Tracepoint *tracepoint)
{
  if (seq->described)
    w->stats.sample_state_resets++;
  g_hash_table_remove_all (seq->sent);
  w->pkt.has_first_packet_on_sequence = w->pkt.first_packet_on_sequence = !seq->described;
  seq->described = TRUE;
  if (seq->timebase == 0)
    return;
  perfetto_timebase_init_named (timebase, tracepoint, perfetto_str (w, seq->timebase));
  perfetto__protos__perf_sample_defaults__init (perf);
  perf->timebase = timebase;
  perfetto__protos__trace_packet_defaults__init (defaults);
  defaults->perf_sample_defaults = perf;
  w->pkt.trace_packet_defaults = defaults;
}

/* A sample of traced_perf goes back as a PerfSample, on one sequence per
 * timebase (trace_processor makes one profiling session, with a timebase
 * counter track per cpu, of each sequence). Without defaults on the
 * sequence, trace_processor names the timebase `cpu-clock`. A sample of
 * no stack node (0) has no callstack: its timebase count still counts. */
static void
write_perf_sample (PerfettoWriter *w,
                   const TraceEvent *ev,
                   PerfettoStackNode *leaf,
                   const gint64 values[PERFETTO_PERF_N_ARGS],
                   guint32 timebase)
{
  Perfetto__Protos__PerfSample ps = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
  Perfetto__Protos__TracePacketDefaults defaults;
  Perfetto__Protos__PerfSampleDefaults perf;
  Perfetto__Protos__PerfEvents__Timebase tb;
  Perfetto__Protos__PerfEvents__Tracepoint tracepoint;
  PerfettoSampleSeq *seq = perf_seq (w, timebase);
  guint32 flags = 0;

  if (!seq->described || g_hash_table_size (seq->sent) >= PERFETTO_SAMPLE_SEQ_MAX_SENT)
    {
      perf_seq_clear (w, seq, &defaults, &perf, &tb, &tracepoint);
      flags = PERFETTO_SEQ_CLEARED;
    }
  if (leaf)
    {
      seq_callstack (w, seq, leaf);
      ps.has_callstack_iid = TRUE;
      ps.callstack_iid = leaf->frame_iid;
    }
  ps.has_pid = ev->pid >= 0;
  ps.pid = (guint32) perfetto_id (w, ev->pid);
  ps.has_tid = ev->tid >= 0;
  ps.tid = (guint32) perfetto_id (w, ev->tid);
  ps.has_cpu = ev->cpu >= 0;
  ps.cpu = (guint32) ev->cpu;
  perf_sample_set_fields (&ps, values);
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
  w->pkt.perf_sample = &ps;
  w->pkt.has_timestamp_clock_id = TRUE;
  w->pkt.timestamp_clock_id = w->builtin_clock;
  w->pkt.has_trusted_packet_sequence_id = TRUE;
  w->pkt.trusted_packet_sequence_id = seq->seq_id;
  w->pkt.sequence_flags = flags;
  perfetto_packet_emit (w, ev->ts, TRUE, leaf != NULL);
  w->stats.samples++;
}

/**
 * perfetto_write_sample:
 * @w: a #PerfettoWriter
 * @batch: the batch of @ev
 * @ev: a CPU-profile sample
 *
 * A sample with PerfSample args (perfetto_perf_arg_names) is written at
 * once as a PerfSample, with its cpu. Any other waits on its thread's
 * sequence for its StreamingProfilePacket; its weight and cpu are not
 * written (no field: Perfetto's flame graph counts samples, the interval
 * of a sample is the distance to the next), its time is rounded to the
 * microsecond.
 */
void
perfetto_write_sample (PerfettoWriter *w,
                       TraceBatch *batch,
                       const TraceEvent *ev)
{
  guint64 id = ev->u.sample.node_id;
  PerfettoStackNode *leaf = id != 0 ? g_hash_table_lookup (w->stack_nodes, &id) : NULL;
  gint64 tid = ev->tid >= 0 ? ev->tid : 0;
  gint64 us = ((gint64) perfetto_timestamp (w, ev->ts) + 500) / 1000;
  gint64 perf_values[PERFETTO_PERF_N_ARGS];
  guint32 timebase;
  PerfettoSampleSeq *seq;

  if (leaf == NULL && (id != 0 || !perf_sample_fields (w, batch, ev, perf_values, &timebase)))
    {
      perfetto_writer_drop (w, &w->stats.dropped_unknown_stack_node, 1, ev->ts, "sample on a stack node never defined dropped");
      return;
    }
  if (leaf == NULL || perf_sample_fields (w, batch, ev, perf_values, &timebase))
    {
      write_perf_sample (w, ev, leaf, perf_values, timebase);
      return;
    }
  seq = sample_seq (w, ev->pid >= 0 ? ev->pid : tid, tid);
  if (seq == NULL)
    {
      perfetto_writer_drop (w, &w->stats.dropped_thread_table, 1, ev->ts, "sample of a thread past the thread table (max-threads) dropped");
      return;
    }
  if (!seq->described || g_hash_table_size (seq->sent) >= PERFETTO_SAMPLE_SEQ_MAX_SENT)
    seq_describe (w, seq, us);
  seq_callstack (w, seq, leaf);
  g_array_append_val (seq->iids, leaf->frame_iid);
  g_array_append_vals (seq->deltas, &(gint64){ us - seq->last_us }, 1);
  seq->last_us = us;
  w->stats.samples++;
  /* New interned data go out at once, with the samples that use them:
   * the packet being built is the writer's, the next may be another
   * sequence's. */
  if (w->packet_has_interned || seq->iids->len >= PERFETTO_SAMPLES_PER_PACKET)
    seq_flush (w, seq);
}

/**
 * perfetto_samples_flush:
 * @w: a #PerfettoWriter
 *
 * Writes the samples waiting on every sequence.
 */
void
perfetto_samples_flush (PerfettoWriter *w)
{
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, w->sample_seqs);
  while (g_hash_table_iter_next (&it, NULL, &value))
    seq_flush (w, value);
}
