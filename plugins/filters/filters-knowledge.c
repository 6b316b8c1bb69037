/* tracepipe - what the filter learns from the stream: threads, processes,
 * their names, open slices; and the glob caches
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "filters-private.h"

#include <string.h>

/* ---- globs ------------------------------------------------------------ */

gboolean
filter_glob_set (FilterGlob *glob,
                 const char *text,
                 gboolean any_comma_part)
{
  filter_glob_clear (glob);
  if (text == NULL || *text == '\0')
    return FALSE;
  glob->spec = g_pattern_spec_new (text);
  glob->text = g_strdup (text);
  glob->any_comma_part = any_comma_part;
  glob->cache = g_byte_array_new ();
  return TRUE;
}

void
filter_glob_clear (FilterGlob *glob)
{
  g_clear_pointer (&glob->spec, g_pattern_spec_free);
  g_clear_pointer (&glob->text, g_free);
  g_clear_pointer (&glob->cache, g_byte_array_unref);
}

/* Only on a cache miss, so once per distinct string: allocation is fine. */
static gboolean
glob_match_comma_parts (GPatternSpec *spec,
                        const char *str)
{
  g_auto (GStrv) parts = NULL;

  if (g_pattern_spec_match_string (spec, str))
    return TRUE;
  if (strchr (str, ',') == NULL)
    return FALSE;
  parts = g_strsplit (str, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (g_pattern_spec_match_string (spec, g_strstrip (parts[i])))
      return TRUE;
  return FALSE;
}

gboolean
filter_glob_match (FilterGlob *glob,
                   TraceStringPool *pool,
                   guint32 id)
{
  GByteArray *cache = glob->cache;
  const char *str;
  gboolean match;

  if (G_UNLIKELY (id >= cache->len))
    {
      guint old_len = cache->len;
      guint new_len = MAX (id + 1, MAX (old_len * 2, 256));

      g_byte_array_set_size (cache, new_len);
      memset (cache->data + old_len, 0, new_len - old_len);
    }
  if (G_LIKELY (cache->data[id] != 0))
    return cache->data[id] == 1;

  str = trace_string_pool_get (pool, id);
  if (str == NULL)
    str = "";
  if (glob->any_comma_part)
    match = glob_match_comma_parts (glob->spec, str);
  else
    match = g_pattern_spec_match_string (glob->spec, str);
  cache->data[id] = match ? 1 : 2;
  return match;
}

/* ---- threads and processes -------------------------------------------- */

static void
filter_thread_free (gpointer data)
{
  FilterThread *thread = data;

  if (thread->stack)
    g_array_unref (thread->stack);
  g_free (thread);
}

static void
async_state_free (gpointer data)
{
  AsyncState *state = data;

  g_array_unref (state->stack);
  g_free (state);
}

static guint
async_key_hash (gconstpointer data)
{
  const AsyncKey *key = data;
  guint64 h = key->id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  h ^= (guint64) key->pid * 31 + key->category;
  h ^= ((guint64) key->name << 17) ^ key->scope;
  return (guint) (h ^ (h >> 32));
}

static gboolean
async_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const AsyncKey *ka = a, *kb = b;

  return ka->id == kb->id && ka->pid == kb->pid && ka->category == kb->category && ka->name == kb->name && ka->scope == kb->scope;
}

void
filter_knowledge_init (FilterKnowledge *k)
{
  memset (k, 0, sizeof *k);
  k->threads = g_hash_table_new (g_int64_hash, g_int64_equal);
  k->thread_list = g_ptr_array_new_with_free_func (filter_thread_free);
  k->processes = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  k->async = g_hash_table_new_full (async_key_hash, async_key_equal, NULL, async_state_free);
  k->async_free = g_ptr_array_new_with_free_func (async_state_free);
  k->async_list = g_ptr_array_new ();
  k->last_tid = G_MININT64;
}

void
filter_knowledge_clear (FilterKnowledge *k)
{
  g_clear_pointer (&k->threads, g_hash_table_unref);
  g_clear_pointer (&k->thread_list, g_ptr_array_unref);
  g_clear_pointer (&k->processes, g_hash_table_unref);
  g_clear_pointer (&k->async, g_hash_table_unref);
  g_clear_pointer (&k->async_free, g_ptr_array_unref);
  g_clear_pointer (&k->async_list, g_ptr_array_unref);
}

FilterProcess *
filter_knowledge_process (FilterKnowledge *k,
                          gint64 pid,
                          gboolean create)
{
  FilterProcess *proc;

  if (pid < 0)
    return NULL;
  proc = g_hash_table_lookup (k->processes, &pid);
  if (proc == NULL && create)
    {
      proc = g_new0 (FilterProcess, 1);
      proc->pid = pid;
      g_hash_table_insert (k->processes, &proc->pid, proc);
    }
  return proc;
}

static void
filter_thread_learn_pid (FilterKnowledge *k,
                         FilterThread *thread,
                         gint64 pid)
{
  thread->pid = pid;
  thread->proc = filter_knowledge_process (k, pid, TRUE);
  if (thread->tid == pid)
    thread->proc->main_thread = thread;
}

static FilterThread *
filter_thread_new (FilterKnowledge *k,
                   gint64 tid,
                   gint64 pid)
{
  FilterThread *thread = g_new0 (FilterThread, 1);

  thread->tid = tid;
  thread->pid = TRACE_ID_UNKNOWN;
  g_ptr_array_add (k->thread_list, thread);
  if (pid >= 0)
    filter_thread_learn_pid (k, thread, pid);
  return thread;
}

/* The state of thread @tid.  A thread is keyed by its tid; a pid given
 * for a thread whose pid was unknown teaches it (its open slices stay
 * where they are), a different pid means another process reuses the tid
 * (Chrome JSON: tids are not unique across processes). */
static FilterThread *
filter_knowledge_thread_slow (FilterKnowledge *k,
                              gint64 tid,
                              gint64 pid)
{
  FilterThread *head = g_hash_table_lookup (k->threads, &tid);
  FilterThread *thread;

  if (head == NULL)
    {
      head = filter_thread_new (k, tid, pid);
      g_hash_table_insert (k->threads, &head->tid, head);
      return head;
    }
  if (pid < 0)
    return head;
  for (thread = head; thread != NULL; thread = thread->next)
    {
      if (thread->pid == pid)
        return thread;
      if (thread->pid < 0)
        {
          filter_thread_learn_pid (k, thread, pid);
          return thread;
        }
    }
  thread = filter_thread_new (k, tid, pid);
  thread->next = head->next;
  head->next = thread;
  return thread;
}

FilterThread *
filter_knowledge_thread (FilterKnowledge *k,
                         gint64 tid,
                         gint64 pid)
{
  FilterThread *thread;

  if (G_LIKELY (tid == k->last_tid && pid == k->last_pid))
    return k->last_thread;
  thread = filter_knowledge_thread_slow (k, tid, pid);
  k->last_tid = tid;
  k->last_pid = pid;
  k->last_thread = thread;
  return thread;
}

gint64
filter_knowledge_resolve_pid (FilterKnowledge *k,
                              const TraceEvent *ev,
                              FilterThread *thread)
{
  if (ev->pid >= 0)
    return ev->pid;
  if (thread != NULL)
    return thread->pid;
  return TRACE_ID_UNKNOWN;
}

static void
thread_set_name (FilterThread *thread,
                 guint32 name,
                 guint rank)
{
  if (thread == NULL || name == 0 || rank < thread->name_rank)
    return;
  thread->name = name;
  thread->name_rank = rank;
}

/* A thread other than the event's own: its pid is unknown unless given,
 * and looking it up must not disturb the one-entry cache's meaning. */
static FilterThread *
other_thread (FilterKnowledge *k,
              gint64 tid,
              gint64 pid)
{
  if (tid < 0)
    return NULL;
  return filter_knowledge_thread (k, tid, pid);
}

static void
learn_newtask (FilterKnowledge *k,
               const TraceEvent *ev,
               FilterThread *parent,
               gboolean want_names)
{
  gint64 parent_pid = filter_knowledge_resolve_pid (k, ev, parent);
  gint64 child_pid;
  FilterThread *child;

  if (ev->u.task.tid <= 0)
    return;
  if (ev->u.task.clone_flags & TRACE_CLONE_THREAD)
    child_pid = parent_pid;
  else
    child_pid = ev->u.task.tid; /* a new process: its first thread */
  child = other_thread (k, ev->u.task.tid, child_pid);
  if (want_names)
    thread_set_name (child, ev->u.task.comm, NAME_RANK_TASK);
}

static void
learn_sched (FilterKnowledge *k,
             const TraceEvent *ev)
{
  if (ev->kind == TRACE_EVENT_SCHED_SWITCH)
    {
      gint64 prev_pid = ev->u.sched_switch.prev_tid == ev->tid ? ev->pid : TRACE_ID_UNKNOWN;

      if (ev->u.sched_switch.prev_tid > 0)
        thread_set_name (other_thread (k, ev->u.sched_switch.prev_tid, prev_pid),
                         ev->u.sched_switch.prev_comm, NAME_RANK_SCHED);
      if (ev->u.sched_switch.next_tid > 0)
        thread_set_name (other_thread (k, ev->u.sched_switch.next_tid, TRACE_ID_UNKNOWN),
                         ev->u.sched_switch.next_comm, NAME_RANK_SCHED);
    }
  else if (ev->u.wakeup.tid > 0)
    {
      thread_set_name (other_thread (k, ev->u.wakeup.tid, TRACE_ID_UNKNOWN),
                       ev->u.wakeup.comm, NAME_RANK_SCHED);
    }
}

/* Learns what @ev says about threads and processes.  @thread is the
 * event's own thread (NULL when it has no tid). */
void
filter_knowledge_learn (FilterKnowledge *k,
                        const TraceEvent *ev,
                        FilterThread *thread,
                        gboolean want_names)
{
  FilterProcess *proc;

  if (thread == NULL && ev->pid >= 0)
    filter_knowledge_process (k, ev->pid, TRUE);

  switch (ev->kind)
    {
    case TRACE_EVENT_PROCESS_NAME:
      proc = filter_knowledge_process (k, ev->pid, TRUE);
      if (proc != NULL && ev->name != 0)
        proc->name = ev->name;
      break;
    case TRACE_EVENT_THREAD_NAME:
      thread_set_name (thread, ev->name, NAME_RANK_META);
      break;
    case TRACE_EVENT_TASK_NEWTASK:
      learn_newtask (k, ev, thread, want_names);
      break;
    case TRACE_EVENT_TASK_RENAME:
      if (want_names)
        {
          gint64 target = ev->u.task.tid > 0 ? ev->u.task.tid : ev->tid;

          thread_set_name (other_thread (k, target, target == ev->tid ? ev->pid : TRACE_ID_UNKNOWN),
                           ev->u.task.comm, NAME_RANK_TASK);
        }
      break;
    case TRACE_EVENT_SCHED_SWITCH:
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
      if (want_names)
        learn_sched (k, ev);
      break;
    default:
      break;
    }
}

/* ---- async slices ----------------------------------------------------- */

AsyncState *
filter_knowledge_async (FilterKnowledge *k,
                        const TraceEvent *ev,
                        gint64 pid,
                        gboolean create)
{
  AsyncKey key = { 0 };
  AsyncState *state;

  key.pid = (ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL) ? TRACE_ID_UNKNOWN : pid;
  key.id = ev->u.async.id;
  key.category = ev->category;
  key.name = (ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY) ? ev->name : 0;
  key.scope = ev->u.async.scope;

  state = g_hash_table_lookup (k->async, &key);
  if (state != NULL || !create)
    return state;
  if (k->async_free->len > 0)
    state = g_ptr_array_steal_index_fast (k->async_free, k->async_free->len - 1);
  else
    {
      state = g_new0 (AsyncState, 1);
      state->stack = g_array_new (FALSE, FALSE, sizeof (SliceEntry));
    }
  state->key = key;
  g_hash_table_insert (k->async, &state->key, state);
  g_ptr_array_add (k->async_list, state);
  return state;
}

/* An async key whose slices all ended: recycled, not freed. */
void
filter_knowledge_async_release (FilterKnowledge *k,
                                AsyncState *state)
{
  g_hash_table_steal (k->async, &state->key);
  g_ptr_array_remove_fast (k->async_list, state);
  g_array_set_size (state->stack, 0);
  g_ptr_array_add (k->async_free, state);
}
