/* tracepipe - Perfetto writer: tracks, their descriptors, process and
 * thread names
 *
 * Every track is declared by a TrackDescriptor packet before its first
 * use: processes (pid, name), threads (parent = their process; pid, tid,
 * name), counter tracks (parent = the process, or none for global ones),
 * named tracks of a process, and async tracks. A name learnt later
 * re-emits the descriptor (same uuid) and is also listed in a
 * `process_tree` packet, which is where trace_processor learns the
 * process of threads it only knows from kernel events.
 *
 * Uuids are small numbers handed out in order of first use: they cost one
 * or two bytes per event instead of ten for random 64-bit ids.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <string.h>

static void
perfetto_process_free (gpointer data)
{
  PerfettoProcess *p = data;

  g_clear_pointer (&p->labels, g_array_unref);
  g_free (p);
}

static void
perfetto_thread_free (gpointer data)
{
  PerfettoThread *t = data;

  g_clear_pointer (&t->open, g_array_unref);
  for (guint i = 0; t->lanes && i < t->lanes->len; i++)
    g_array_unref (g_array_index (t->lanes, PerfettoLane, i).open_ends);
  g_clear_pointer (&t->lanes, g_array_unref);
  g_free (t);
}

static void
perfetto_async_pool_free (gpointer data)
{
  PerfettoAsyncPool *pool = data;

  g_array_unref (pool->tracks);
  g_free (pool);
}

void
perfetto_tracks_init (PerfettoWriter *w)
{
  w->next_uuid = 1;
  w->processes = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, NULL, perfetto_process_free);
  w->threads = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, NULL, perfetto_thread_free);
  w->counters = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, NULL, g_free);
  w->named = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, NULL, g_free);
  w->async_pools = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, NULL, perfetto_async_pool_free);
  w->async_slots = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, NULL, g_free);
  w->tid_to_pid = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  perfetto_vec_init (&w->tree_processes, sizeof (Perfetto__Protos__ProcessTree__Process));
  perfetto_vec_init (&w->tree_threads, sizeof (Perfetto__Protos__ProcessTree__Thread));
  w->tree_cmdlines = g_ptr_array_new ();
}

/* perfetto_id()'s slow path: an id of 30 bits or more, or below
 * G_MININT32. Every such id is kept with what it was written as: one
 * that fits and is not taken as itself, else the next free id from
 * G_MAXINT32 down, so no two ids of the file meet. */
gint32
perfetto_map_id (PerfettoWriter *w,
                 gint64 id)
{
  gpointer written;
  gint64 mapped = id;

  if (w->id_map == NULL)
    {
      w->id_map = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      w->id_taken = g_hash_table_new (NULL, NULL);
      w->next_mapped = G_MAXINT32;
    }
  if (g_hash_table_lookup_extended (w->id_map, &id, NULL, &written))
    return GPOINTER_TO_INT (written);
  if (id > G_MAXINT32 || id < G_MININT32 || g_hash_table_contains (w->id_taken, GINT_TO_POINTER ((gint32) id)))
    {
      while (w->next_mapped >= PERFETTO_ID_PLAIN && g_hash_table_contains (w->id_taken, GINT_TO_POINTER ((gint32) w->next_mapped)))
        w->next_mapped--;
      /* past 2^30 ids of their own (more than any table of the writer
       * holds) the id is cut as it comes */
      if (w->next_mapped < PERFETTO_ID_PLAIN)
        return (gint32) id;
      mapped = w->next_mapped--;
      if (w->stats.mapped_ids++ == 0)
        {
          w->stats.first_mapped_id = id;
          w->stats.first_mapped_as = mapped;
        }
    }
  g_hash_table_add (w->id_taken, GINT_TO_POINTER ((gint32) mapped));
  g_hash_table_insert (w->id_map, g_memdup2 (&id, sizeof id), GINT_TO_POINTER ((gint32) mapped));
  return (gint32) mapped;
}

void
perfetto_tracks_free (PerfettoWriter *w)
{
  g_clear_pointer (&w->id_map, g_hash_table_unref);
  g_clear_pointer (&w->id_taken, g_hash_table_unref);
  g_hash_table_unref (w->processes);
  g_hash_table_unref (w->threads);
  g_hash_table_unref (w->counters);
  g_hash_table_unref (w->named);
  g_hash_table_unref (w->async_slots);
  g_hash_table_unref (w->async_pools);
  g_hash_table_unref (w->tid_to_pid);
  perfetto_vec_clear (&w->tree_processes);
  perfetto_vec_clear (&w->tree_threads);
  g_ptr_array_unref (w->tree_cmdlines);
}

static void
emit_descriptor (PerfettoWriter *w,
                 PerfettoTrackDescriptor *desc,
                 gint64 ts)
{
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
  w->pkt.track_descriptor = desc;
  perfetto_packet_emit (w, ts, TRUE, FALSE);
  w->stats.descriptors++;
}

static void
descriptor_init (PerfettoTrackDescriptor *desc,
                 guint64 uuid,
                 guint64 parent_uuid)
{
  perfetto__protos__track_descriptor__init (desc);
  desc->has_uuid = TRUE;
  desc->uuid = uuid;
  if (parent_uuid != 0)
    {
      desc->has_parent_uuid = TRUE;
      desc->parent_uuid = parent_uuid;
    }
}

/* ---- sort indexes ---- */

/* A sort index is a track's `sibling_order_rank`, which trace_processor
 * heeds (as the process/thread sort index hint the JSON importer sets)
 * once the root descriptor, uuid 0, makes the ordering explicit, and
 * takes from the track's first descriptor only. The root descriptor is
 * written before the first rank, so a trace without sort indexes keeps
 * the viewer's default order. */
static void
declare_explicit_ordering (PerfettoWriter *w,
                           gint64 ts)
{
  PerfettoTrackDescriptor desc;

  if (w->ordering_explicit)
    return;
  perfetto__protos__track_descriptor__init (&desc);
  desc.has_uuid = TRUE;
  desc.uuid = 0;
  desc.has_process_ordering = desc.has_thread_ordering = TRUE;
  desc.process_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__PROCESS_ORDERING__PROCESS_ORDERING_EXPLICIT;
  desc.thread_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__THREAD_ORDERING__THREAD_ORDERING_EXPLICIT;
  emit_descriptor (w, &desc, ts);
  w->ordering_explicit = TRUE;
}

static void
descriptor_set_rank (PerfettoWriter *w,
                     PerfettoTrackDescriptor *desc,
                     gint64 rank,
                     gint64 ts)
{
  declare_explicit_ordering (w, ts);
  desc->has_sibling_order_rank = TRUE;
  desc->sibling_order_rank = (gint32) CLAMP (rank, G_MININT32, G_MAXINT32);
}

static PerfettoThread *thread_get_undescribed (PerfettoWriter *w,
                                               gint64 pid,
                                               gint64 tid);

/**
 * perfetto_ranks_prescan:
 * @w: a #PerfettoWriter
 * @batch: the batch about to be written
 *
 * A sort index usually comes after the name that first describes its
 * process or thread (Chrome writes `process_name` first): the ranks of
 * tracks not yet described are learnt before the batch is written, so
 * that their first descriptor has them.
 */
void
perfetto_ranks_prescan (PerfettoWriter *w,
                        const TraceBatch *batch)
{
  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];

      if (ev->kind == TRACE_EVENT_PROCESS_SORT_INDEX && ev->pid != TRACE_ID_UNKNOWN)
        {
          PerfettoProcess *p = perfetto_process_get (w, ev->pid);

          if (!p->described && !p->has_rank)
            p->has_rank = TRUE, p->rank = ev->u.meta.value;
        }
      else if (ev->kind == TRACE_EVENT_THREAD_SORT_INDEX && ev->pid != TRACE_ID_UNKNOWN && ev->tid >= 0)
        {
          PerfettoThread *t = thread_get_undescribed (w, ev->pid, ev->tid);

          if (t && !t->described && !t->has_rank)
            t->has_rank = TRUE, t->rank = ev->u.meta.value;
        }
    }
}

/* ---- processes ---- */

/**
 * perfetto_process_get:
 * @w: a #PerfettoWriter
 * @pid: a known pid
 *
 * Returns: (transfer none): the process, created (not yet described) if new
 */
PerfettoProcess *
perfetto_process_get (PerfettoWriter *w,
                      gint64 pid)
{
  PerfettoKey key = { pid, 0, 0, 0 };
  PerfettoProcess *p = g_hash_table_lookup (w->processes, &key);

  if (p == NULL)
    {
      p = g_new0 (PerfettoProcess, 1);
      p->key = key;
      p->pid = pid;
      p->uuid = w->next_uuid++;
      g_hash_table_insert (w->processes, &p->key, p);
    }
  return p;
}

/**
 * perfetto_process_describe:
 * @w: a #PerfettoWriter
 * @p: a process
 * @ts: when
 *
 * Writes @p's descriptor with all that is known of it.
 */
void
perfetto_process_describe (PerfettoWriter *w,
                           PerfettoProcess *p,
                           gint64 ts)
{
  Perfetto__Protos__ProcessDescriptor proc = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
  PerfettoTrackDescriptor desc;
  char *labels[PERFETTO_MAX_LABELS];

  descriptor_init (&desc, p->uuid, 0);
  proc.has_pid = TRUE;
  proc.pid = perfetto_id (w, p->pid);
  /* a name the system gave is in process_tree, which outranks this */
  if (p->name != 0 && !p->name_in_tree)
    proc.process_name = (char *) perfetto_str (w, p->name);
  if (p->has_sort_index)
    {
      proc.has_legacy_sort_index = TRUE;
      proc.legacy_sort_index = (gint32) p->sort_index;
    }
  if (p->has_sort_index || p->has_rank)
    descriptor_set_rank (w, &desc, p->has_sort_index ? p->sort_index : p->rank, ts);
  for (guint i = 0; p->labels && i < p->labels->len; i++)
    labels[i] = (char *) perfetto_str (w, g_array_index (p->labels, guint32, i));
  proc.n_process_labels = p->labels ? p->labels->len : 0;
  proc.process_labels = labels;
  desc.process = &proc;
  emit_descriptor (w, &desc, ts);
  p->described = TRUE;
}

/**
 * perfetto_process_track:
 * @w: a #PerfettoWriter
 * @pid: a pid, or %TRACE_ID_UNKNOWN for the global track
 * @ts: when it is first needed
 *
 * Returns: the uuid of @pid's process track, described
 */
guint64
perfetto_process_track (PerfettoWriter *w,
                        gint64 pid,
                        gint64 ts)
{
  PerfettoProcess *p;

  if (pid == TRACE_ID_UNKNOWN)
    return perfetto_global_track (w, ts);
  p = perfetto_process_get (w, pid);
  if (!p->described)
    perfetto_process_describe (w, p, ts);
  return p->uuid;
}

/* ---- threads ---- */

static void
perfetto_assoc_set (PerfettoWriter *w,
                    gint64 tid,
                    gint64 pid)
{
  gint64 *k = g_new (gint64, 1);
  gint64 *v = g_new (gint64, 1);
  PerfettoAssocEntry *e = &w->assoc_cache[(guint64) tid % PERFETTO_CACHE_SIZE];

  /* Past the thread cap a new tid is not remembered: its thread is
   * listed again in a later process_tree, which costs bytes, not memory. */
  if (g_hash_table_size (w->tid_to_pid) >= w->opts.max_threads && !g_hash_table_contains (w->tid_to_pid, &tid))
    {
      g_free (k);
      g_free (v);
      return;
    }
  *k = tid;
  *v = pid;
  g_hash_table_replace (w->tid_to_pid, k, v);
  e->tid = tid;
  e->pid = pid;
  e->valid = TRUE;
}

/* Returns: (nullable): the pid readers were told @tid belongs to */
static const gint64 *
perfetto_assoc_lookup (PerfettoWriter *w,
                       gint64 tid)
{
  PerfettoAssocEntry *e = &w->assoc_cache[(guint64) tid % PERFETTO_CACHE_SIZE];
  const gint64 *pid;

  if (e->valid && e->tid == tid)
    return &e->pid;
  pid = g_hash_table_lookup (w->tid_to_pid, &tid);
  if (pid)
    {
      e->tid = tid;
      e->pid = *pid;
      e->valid = TRUE;
    }
  return pid;
}

/* The pid is mixed in before the multiply: added after it, it would only
 * reach the low bits, and the slot is taken from the high ones (on the
 * bench's 50 threads: 3 502 misses in 171 007 events, against 30 735). */
static inline guint
thread_cache_index (gint64 pid,
                    gint64 tid)
{
  return (guint) ((((guint64) tid ^ ((guint64) pid << 32)) * 0x9E3779B97F4A7C15ull) >> 56) % PERFETTO_CACHE_SIZE;
}

PerfettoThread *
perfetto_thread_lookup (PerfettoWriter *w,
                        gint64 pid,
                        gint64 tid)
{
  PerfettoKey key = { pid, tid, 0, 0 };
  PerfettoThread **slot = &w->thread_cache[thread_cache_index (pid, tid)];
  PerfettoThread *t = *slot;

  if (t && t->pid == pid && t->tid == tid)
    return t;
  t = g_hash_table_lookup (w->threads, &key);
  if (t)
    *slot = t;
  return t;
}

/* Returns: the process readers were told @tid belongs to, or
 * %TRACE_ID_UNKNOWN */
static gint64
perfetto_assoc_get (PerfettoWriter *w,
                    gint64 tid)
{
  const gint64 *pid = perfetto_assoc_lookup (w, tid);

  return pid ? *pid : TRACE_ID_UNKNOWN;
}

/* Returns: (nullable): the thread, or %NULL when it is new and the table
 * already holds opts.max_threads threads (its events are dropped).
 *
 * An event without a pid goes to its thread's known process (a bare
 * atrace `E` must end the slice its `B|pid` began); a thread whose pid is
 * not known at all is declared with pid = tid (Perfetto's thread
 * descriptor needs one); an event with no tid goes to the thread
 * tid = pid. */
static PerfettoThread *
thread_get_undescribed (PerfettoWriter *w,
                        gint64 pid,
                        gint64 tid)
{
  PerfettoThread *t;

  if (tid == TRACE_ID_UNKNOWN)
    tid = pid == TRACE_ID_UNKNOWN ? 0 : pid;
  if (pid == TRACE_ID_UNKNOWN)
    pid = perfetto_assoc_get (w, tid);
  if (w->last_thread && w->last_thread->pid == pid && w->last_thread->tid == tid)
    return w->last_thread;
  t = perfetto_thread_lookup (w, pid, tid);
  if (t == NULL && g_hash_table_size (w->threads) >= w->opts.max_threads)
    return NULL;
  if (t == NULL)
    {
      t = g_new0 (PerfettoThread, 1);
      t->key.a = t->pid = pid;
      t->key.b = t->tid = tid;
      t->uuid = w->next_uuid++;
      g_hash_table_insert (w->threads, &t->key, t);
      w->thread_cache[thread_cache_index (pid, tid)] = t;
    }
  w->last_thread = t;
  return t;
}

/**
 * perfetto_thread_find:
 * @w: a #PerfettoWriter
 * @pid: a process, or %TRACE_ID_UNKNOWN
 * @tid: a thread, or %TRACE_ID_UNKNOWN
 *
 * The thread perfetto_thread_get() would give, without describing it.
 *
 * Returns: (nullable): the thread, or %NULL when it is new and the table
 *   is full
 */
PerfettoThread *
perfetto_thread_find (PerfettoWriter *w,
                      gint64 pid,
                      gint64 tid)
{
  return thread_get_undescribed (w, pid, tid);
}

/* Returns: the process readers were told @tid belongs to, or
 * %TRACE_ID_UNKNOWN */
gint64
perfetto_assoc_pid (PerfettoWriter *w,
                    gint64 tid)
{
  return perfetto_assoc_get (w, tid);
}

/**
 * perfetto_thread_describe:
 * @w: a #PerfettoWriter
 * @t: a thread
 * @ts: when
 *
 * Writes @t's descriptor (and its process's first, if not yet written).
 */
void
perfetto_thread_describe (PerfettoWriter *w,
                          PerfettoThread *t,
                          gint64 ts)
{
  Perfetto__Protos__ThreadDescriptor thread = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
  PerfettoTrackDescriptor desc;
  guint64 parent = 0;

  if (t->pid != TRACE_ID_UNKNOWN)
    {
      parent = perfetto_process_track (w, t->pid, ts);
      perfetto_assoc_set (w, t->tid, t->pid);
    }
  descriptor_init (&desc, t->uuid, parent);
  thread.has_pid = thread.has_tid = TRUE;
  thread.pid = perfetto_id (w, t->pid != TRACE_ID_UNKNOWN ? t->pid : t->tid);
  thread.tid = perfetto_id (w, t->tid);
  if (t->name != 0)
    thread.thread_name = (char *) perfetto_str (w, t->name);
  if (t->has_sort_index)
    {
      thread.has_legacy_sort_index = TRUE;
      thread.legacy_sort_index = (gint32) t->sort_index;
    }
  if (t->has_sort_index || t->has_rank)
    descriptor_set_rank (w, &desc, t->has_sort_index ? t->sort_index : t->rank, ts);
  desc.thread = &thread;
  emit_descriptor (w, &desc, ts);
  t->described = TRUE;
}

/**
 * perfetto_thread_get:
 * @w: a #PerfettoWriter
 * @pid: the pid, or %TRACE_ID_UNKNOWN
 * @tid: the tid, or %TRACE_ID_UNKNOWN
 * @ts: when it is first needed
 *
 * Returns: (transfer none) (nullable): the thread, described; %NULL when
 *   the thread table is full and @tid is new to it
 */
PerfettoThread *
perfetto_thread_get (PerfettoWriter *w,
                     gint64 pid,
                     gint64 tid,
                     gint64 ts)
{
  PerfettoThread *t = thread_get_undescribed (w, pid, tid);

  if (t && !t->described)
    perfetto_thread_describe (w, t, ts);
  return t;
}

/* ---- other tracks ---- */

/**
 * perfetto_global_track:
 * @w: a #PerfettoWriter
 * @ts: when it is first needed
 *
 * Returns: the uuid of the track of global instants
 */
guint64
perfetto_global_track (PerfettoWriter *w,
                       gint64 ts)
{
  PerfettoTrackDescriptor desc;

  if (w->global_uuid != 0)
    return w->global_uuid;
  w->global_uuid = w->next_uuid++;
  descriptor_init (&desc, w->global_uuid, 0);
  desc.static_or_dynamic_name_case =
      PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
  desc.name = (char *) PERFETTO_GLOBAL_TRACK_NAME;
  emit_descriptor (w, &desc, ts);
  return w->global_uuid;
}

/**
 * perfetto_lane_track:
 * @w: a #PerfettoWriter
 * @t: a thread, described
 * @ts: when it is first needed
 *
 * Returns: the uuid of a new overflow track of @t: an unnamed child of
 *   the thread's track, which trace_processor attributes to the thread;
 *   not merged with its siblings (`SIBLING_MERGE_BEHAVIOR_NONE`), so that
 *   trace_processor takes a legacy `X` on it as on the thread's own track
 */
guint64
perfetto_lane_track (PerfettoWriter *w,
                     PerfettoThread *t,
                     gint64 ts)
{
  PerfettoTrackDescriptor desc;
  guint64 uuid = w->next_uuid++;

  descriptor_init (&desc, uuid, t->uuid);
  desc.has_sibling_merge_behavior = TRUE;
  desc.sibling_merge_behavior = PERFETTO__PROTOS__TRACK_DESCRIPTOR__SIBLING_MERGE_BEHAVIOR__SIBLING_MERGE_BEHAVIOR_NONE;
  emit_descriptor (w, &desc, ts);
  return uuid;
}

/**
 * perfetto_thread_time_track:
 * @w: a #PerfettoWriter
 * @t: a thread, described
 * @ts: when it is first needed
 *
 * Returns: the uuid of @t's counter track named `thread_time` (ns), whose
 *   values trace_processor also takes as the thread time of the slice
 *   event that carries them
 */
guint64
perfetto_thread_time_track (PerfettoWriter *w,
                            PerfettoThread *t,
                            gint64 ts)
{
  Perfetto__Protos__CounterDescriptor counter = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
  PerfettoTrackDescriptor desc;

  if (t->thread_time_uuid != 0)
    return t->thread_time_uuid;
  t->thread_time_uuid = w->next_uuid++;
  descriptor_init (&desc, t->thread_time_uuid, t->uuid);
  desc.static_or_dynamic_name_case = PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
  desc.name = (char *) "thread_time";
  counter.has_unit = TRUE;
  counter.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_TIME_NS;
  desc.counter = &counter;
  emit_descriptor (w, &desc, ts);
  return t->thread_time_uuid;
}

static guint64
new_named_track (PerfettoWriter *w,
                 gint64 pid,
                 const char *name,
                 Perfetto__Protos__CounterDescriptor *counter,
                 gint64 ts)
{
  PerfettoTrackDescriptor desc;
  guint64 parent = pid != TRACE_ID_UNKNOWN ? perfetto_process_track (w, pid, ts) : 0;
  guint64 uuid = w->next_uuid++;

  descriptor_init (&desc, uuid, parent);
  desc.static_or_dynamic_name_case =
      PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
  desc.name = (char *) name;
  desc.counter = counter;
  emit_descriptor (w, &desc, ts);
  return uuid;
}

/**
 * perfetto_named_track:
 * @w: a #PerfettoWriter
 * @pid: the process, or %TRACE_ID_UNKNOWN for a global track
 * @name: the track's name
 * @ts: when it is first needed
 *
 * Returns: (transfer none): the named track of @pid
 */
PerfettoTrack *
perfetto_named_track (PerfettoWriter *w,
                      gint64 pid,
                      guint32 name,
                      gint64 ts)
{
  PerfettoKey key = { pid, name, 0, 0 };
  PerfettoTrack *track = g_hash_table_lookup (w->named, &key);

  if (track == NULL)
    {
      track = g_new0 (PerfettoTrack, 1);
      track->key = key;
      track->uuid = new_named_track (w, pid, perfetto_str (w, name), NULL, ts);
      g_hash_table_insert (w->named, &track->key, track);
    }
  return track;
}

/**
 * perfetto_counter_track:
 * @w: a #PerfettoWriter
 * @ev: a counter event
 *
 * Counters of a process are children of its track, counters without a
 * pid are global. A counter instance id is appended to the name as
 * trace_processor's JSON importer does (`name id: 3`).
 *
 * Returns: the uuid of @ev's counter track, described
 */
guint64
perfetto_counter_track (PerfettoWriter *w,
                        const TraceEvent *ev)
{
  Perfetto__Protos__CounterDescriptor counter = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
  PerfettoKey key = { ev->pid, ev->name, (gint64) ev->u.counter.id, ev->u.counter.unit };
  PerfettoTrack *track = g_hash_table_lookup (w->counters, &key);
  g_autofree char *with_id = NULL;
  const char *name;

  if (track != NULL)
    return track->uuid;
  name = perfetto_str (w, ev->name);
  if (ev->u.counter.id != 0)
    name = with_id = g_strdup_printf ("%s" PERFETTO_COUNTER_ID_SEPARATOR "%" G_GUINT64_FORMAT,
                                      name, ev->u.counter.id);
  if (ev->u.counter.unit != 0)
    {
      const char *unit = perfetto_str (w, ev->u.counter.unit);

      /* The name always; the enum too where Perfetto has one, which the
       * UI uses to format values. */
      counter.unit_name = (char *) unit;
      if (g_str_equal (unit, "ns"))
        counter.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_TIME_NS;
      else if (g_str_equal (unit, "bytes") || g_str_equal (unit, "B"))
        counter.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_SIZE_BYTES;
      else if (g_str_equal (unit, "count"))
        counter.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
      counter.has_unit = counter.unit != 0;
    }
  track = g_new0 (PerfettoTrack, 1);
  track->key = key;
  track->uuid = new_named_track (w, ev->pid, name, &counter, ev->ts);
  g_hash_table_insert (w->counters, &track->key, track);
  return track->uuid;
}

/* ---- async tracks ---- */

/* An async family is keyed like trace_processor keys them: process (none
 * for global ids), id, scope, and the category for nestable families or
 * the name (track name if any) for unnestable ones. */
static PerfettoKey
async_key (const TraceEvent *ev)
{
  PerfettoKey key;
  gboolean legacy = (ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) != 0;

  key.a = (ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL) ? TRACE_ID_UNKNOWN : ev->pid;
  key.b = (gint64) ev->u.async.id;
  key.c = ev->u.async.scope;
  key.d = legacy ? (ev->u.async.track ? ev->u.async.track : ev->name) | (G_GINT64_CONSTANT (1) << 32)
                 : ev->category;
  return key;
}

PerfettoAsyncSlot *
perfetto_async_slot_lookup (PerfettoWriter *w,
                            const TraceEvent *ev)
{
  PerfettoKey key = async_key (ev);

  return g_hash_table_lookup (w->async_slots, &key);
}

/**
 * perfetto_async_slot_open:
 * @w: a #PerfettoWriter
 * @ev: the event opening an async family
 *
 * Takes the first free track of the pool of (process, track name), or
 * adds a track to the pool when all are busy: slices that overlap go to
 * different tracks, so each track's slices nest.
 *
 * Returns: (transfer none): the new slot, with depth 0
 */
PerfettoAsyncSlot *
perfetto_async_slot_open (PerfettoWriter *w,
                          const TraceEvent *ev)
{
  guint32 track_name = ev->u.async.track ? ev->u.async.track : ev->name;
  PerfettoAsyncSlot *slot = g_new0 (PerfettoAsyncSlot, 1);
  PerfettoKey pool_key;
  PerfettoAsyncPool *pool;
  PerfettoAsyncTrack *track = NULL;
  guint i;

  slot->key = async_key (ev);
  pool_key = (PerfettoKey){ slot->key.a, track_name, 0, 0 };
  pool = g_hash_table_lookup (w->async_pools, &pool_key);
  if (pool == NULL)
    {
      pool = g_new0 (PerfettoAsyncPool, 1);
      pool->key = pool_key;
      pool->tracks = g_array_new (FALSE, TRUE, sizeof (PerfettoAsyncTrack));
      g_hash_table_insert (w->async_pools, &pool->key, pool);
    }
  for (i = 0; i < pool->tracks->len; i++)
    if (!g_array_index (pool->tracks, PerfettoAsyncTrack, i).busy)
      break;
  if (i == pool->tracks->len)
    {
      PerfettoAsyncTrack fresh = { 0, FALSE };

      fresh.uuid = new_named_track (w, slot->key.a, perfetto_str (w, track_name), NULL, ev->ts);
      g_array_append_val (pool->tracks, fresh);
    }
  track = &g_array_index (pool->tracks, PerfettoAsyncTrack, i);
  track->busy = TRUE;
  slot->pool = pool;
  slot->index = i;
  slot->track_name = track_name;
  g_hash_table_insert (w->async_slots, &slot->key, slot);
  return slot;
}

void
perfetto_async_slot_close (PerfettoWriter *w,
                           PerfettoAsyncSlot *slot)
{
  g_array_index (slot->pool->tracks, PerfettoAsyncTrack, slot->index).busy = FALSE;
  g_hash_table_remove (w->async_slots, &slot->key);
}

guint64
perfetto_async_slot_uuid (PerfettoAsyncSlot *slot)
{
  return g_array_index (slot->pool->tracks, PerfettoAsyncTrack, slot->index).uuid;
}

/* ---- process_tree ---- */

/* A process_tree packet has one timestamp: entries of another time go to
 * the next packet, so readers date each name when it was learnt. */
static void
tree_begin_entry (PerfettoWriter *w,
                  gint64 ts)
{
  if ((w->tree_threads.len > 0 || w->tree_processes.len > 0) && ts != w->tree_ts)
    perfetto_tree_flush (w);
  if (w->tree_threads.len == 0 && w->tree_processes.len == 0)
    w->tree_ts = ts;
}

/**
 * perfetto_assoc_thread:
 * @w: a #PerfettoWriter
 * @tid: a known tid
 * @pid: its process, or %TRACE_ID_UNKNOWN
 * @name: its name, or 0
 * @ts: when learnt
 * @force: list the thread even if its process is already known
 *
 * Lists @tid in the next process_tree packet when its process is new to
 * readers (kernel events carry no tgid of their own) or @force is set.
 * A thread of unknown process is never listed: trace_processor reads a
 * missing tgid as 0 and would put the thread in the idle process.
 */
void
perfetto_assoc_thread (PerfettoWriter *w,
                       gint64 tid,
                       gint64 pid,
                       guint32 name,
                       gint64 ts,
                       gboolean force)
{
  Perfetto__Protos__ProcessTree__Thread *th;
  const gint64 *known;

  if (pid == TRACE_ID_UNKNOWN)
    return;
  known = perfetto_assoc_lookup (w, tid);
  if (!force && known && *known == pid)
    return;
  perfetto_assoc_set (w, tid, pid);
  tree_begin_entry (w, ts);
  th = perfetto_vec_push (&w->tree_threads);
  perfetto__protos__process_tree__thread__init (th);
  th->has_tid = TRUE;
  th->tid = perfetto_id (w, tid);
  th->has_tgid = TRUE;
  th->tgid = perfetto_id (w, pid);
  if (name != 0)
    th->name = (char *) perfetto_str (w, name);
}

void
perfetto_tree_add_process (PerfettoWriter *w,
                           gint64 pid,
                           guint32 name,
                           gint64 ts)
{
  Perfetto__Protos__ProcessTree__Process *proc;

  tree_begin_entry (w, ts);
  proc = perfetto_vec_push (&w->tree_processes);
  perfetto__protos__process_tree__process__init (proc);
  proc->has_pid = TRUE;
  proc->pid = perfetto_id (w, pid);
  g_ptr_array_add (w->tree_cmdlines, (gpointer) perfetto_str (w, name));
}

/**
 * perfetto_tree_flush:
 * @w: a #PerfettoWriter
 *
 * Writes the process_tree entries collected so far as one packet.
 */
void
perfetto_tree_flush (PerfettoWriter *w)
{
  Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;

  if (w->tree_threads.len == 0 && w->tree_processes.len == 0)
    return;
  for (guint i = 0; i < w->tree_processes.len; i++)
    {
      Perfetto__Protos__ProcessTree__Process *proc =
          perfetto_vec_at (&w->tree_processes, Perfetto__Protos__ProcessTree__Process, i);

      proc->n_cmdline = 1;
      proc->cmdline = (char **) &w->tree_cmdlines->pdata[i];
    }
  tree.n_processes = w->tree_processes.len;
  tree.processes = (gpointer) perfetto_vec_ptrs (&w->tree_processes);
  tree.n_threads = w->tree_threads.len;
  tree.threads = (gpointer) perfetto_vec_ptrs (&w->tree_threads);
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
  w->pkt.process_tree = &tree;
  perfetto_packet_emit (w, w->tree_ts, TRUE, FALSE);
  w->tree_processes.len = w->tree_threads.len = 0;
  g_ptr_array_set_size (w->tree_cmdlines, 0);
}
