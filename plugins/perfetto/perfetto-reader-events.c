/* tracepipe - Perfetto reader: tracks, TrackEvents, names
 *
 * A track uuid resolves to what its descriptor declared: a thread (pid,
 * tid), a process, a counter (of a process or global) or a named track of
 * a process. Events come back by track kind:
 *
 *   thread track                 slice begin / end / instant, flows
 *   process track                process-scoped instant
 *   tracepipe's global track     global instant
 *   named track + correlation id async begin / end / instant / step
 *   named track, no correlation  slice or instant on a named track
 *   counter track                counter (integer or double)
 *   legacy phase s / t / f       flow start / step / end
 *
 * Names, sort indexes and labels in descriptors and process_tree packets
 * come back as metadata events when they change.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"

#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

/**
 * perfetto_reader_thread_name:
 * @r: a #PerfettoReader
 * @pid: the thread's process, or %TRACE_ID_UNKNOWN
 * @tid: the thread
 * @name: its name
 * @ts: when learnt
 *
 * Emits a THREAD_NAME event if @name is new for @tid.
 */
void
perfetto_reader_thread_name (PerfettoReader *r,
                             gint64 pid,
                             gint64 tid,
                             guint32 name,
                             gint64 ts)
{
  PerfettoKey key = { pid, tid, 0, 0 };
  gpointer known;
  TraceEvent *ev;

  /* Keyed by process too: Chrome and macOS reuse thread ids across
   * processes. */
  if (name == 0)
    return;
  if (g_hash_table_lookup_extended (r->thread_names, &key, NULL, &known) && GPOINTER_TO_UINT (known) == name)
    return;
  g_hash_table_replace (r->thread_names, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (name));
  ev = perfetto_reader_emit (r, TRACE_EVENT_THREAD_NAME, ts);
  ev->pid = pid;
  ev->tid = tid;
  ev->name = name;
}

static void
process_name (PerfettoReader *r,
              gint64 pid,
              guint32 name,
              TraceEventFlags flags,
              gint64 ts)
{
  /* the name and whether only the app gave it: the system giving the
   * same name again makes it the system's */
  gsize entry = (gsize) name << 1 | ((flags & TRACE_EVENT_FLAG_APP_NAME) != 0);
  gpointer known;
  TraceEvent *ev;

  if (name == 0)
    return;
  if (g_hash_table_lookup_extended (r->proc_names, &pid, NULL, &known) &&
      (GPOINTER_TO_SIZE (known) == entry || GPOINTER_TO_SIZE (known) == (entry & ~(gsize) 1)))
    return;
  g_hash_table_replace (r->proc_names, perfetto_int64_dup (pid), GSIZE_TO_POINTER (entry));
  ev = perfetto_reader_emit (r, TRACE_EVENT_PROCESS_NAME, ts);
  ev->pid = pid;
  ev->name = name;
  ev->flags |= flags;
}

/* Emits a sort index event if @value is new for @id in @table. */
static void
sort_index (PerfettoReader *r,
            GHashTable *table,
            TraceEventKind kind,
            gint64 pid,
            gint64 tid,
            gint64 value,
            gint64 ts)
{
  PerfettoKey key = { pid, kind == TRACE_EVENT_THREAD_SORT_INDEX ? tid : 0, 0, 0 };
  const gint64 *known = g_hash_table_lookup (table, &key);
  TraceEvent *ev;

  if (known && *known == value)
    return;
  g_hash_table_replace (table, g_memdup2 (&key, sizeof key), perfetto_int64_dup (value));
  ev = perfetto_reader_emit (r, kind, ts);
  ev->pid = pid;
  ev->tid = kind == TRACE_EVENT_THREAD_SORT_INDEX ? tid : TRACE_ID_UNKNOWN;
  ev->u.meta.value = value;
}

static void
process_labels (PerfettoReader *r,
                gint64 pid,
                const Perfetto__Protos__ProcessDescriptor *proc,
                gint64 ts)
{
  for (gsize i = 0; i < proc->n_process_labels; i++)
    {
      guint32 label = perfetto_reader_intern (r, proc->process_labels[i]);
      PerfettoKey key = { pid, label, 0, 0 };
      TraceEvent *ev;

      if (g_hash_table_contains (r->proc_labels, &key))
        continue;
      g_hash_table_add (r->proc_labels, g_memdup2 (&key, sizeof key));
      ev = perfetto_reader_emit (r, TRACE_EVENT_PROCESS_LABEL, ts);
      ev->pid = pid;
      ev->name = label;
    }
}

/* The kernel's threads (children of kthreadd, pid 2) have no cmdline:
 * traced_probes lists their comm, and trace_processor names a kworker by
 * its comm up to the work it runs (`kworker/1:0-events` is `kworker/1:0`). */
#define KTHREADD_PID 2

static gsize
tree_name_length (const Perfetto__Protos__ProcessTree__Process *p,
                  const char *name)
{
  gsize len = strlen (name);

  if (p->has_ppid && p->ppid == KTHREADD_PID && g_str_has_prefix (name, "kworker/"))
    len = MIN (len, MIN (strcspn (name + 8, "+-") + 8, len));
  return len;
}

/* A process of a process_tree packet: named by its cmdline's first part
 * (a kworker's cut as trace_processor cuts it, system_probes_parser.cc).
 * `cmdline_is_comm` (a kernel thread, or a zombie) says the cmdline is the
 * main thread's comm: that thread gets the whole of it as its name. */
static void
tree_process (PerfettoReader *r,
              const Perfetto__Protos__ProcessTree__Process *p,
              gint64 ts)
{
  const char *argv0 = p->cmdline[0];
  gsize len = tree_name_length (p, argv0);
  g_autoptr (GString) joined = g_string_new_len (argv0, len);

  for (gsize i = 1; len == strlen (argv0) && i < p->n_cmdline; i++)
    g_string_append_printf (joined, " %s", p->cmdline[i]);
  process_name (r, p->pid, trace_string_pool_intern_len (r->pool, argv0, len), 0, ts);
  if (p->has_cmdline_is_comm && p->cmdline_is_comm)
    perfetto_reader_thread_name (r, p->pid, p->pid, perfetto_reader_intern (r, joined->str), ts);
}

/**
 * perfetto_reader_process_tree:
 * @r: a #PerfettoReader
 * @tree: a process_tree packet
 * @ts: its time
 */
void
perfetto_reader_process_tree (PerfettoReader *r,
                              Perfetto__Protos__ProcessTree *tree,
                              gint64 ts)
{
  for (gsize i = 0; i < tree->n_processes; i++)
    {
      const Perfetto__Protos__ProcessTree__Process *p = tree->processes[i];

      if (p->has_pid && p->n_cmdline > 0)
        tree_process (r, p, ts);
    }
  for (gsize i = 0; i < tree->n_threads; i++)
    {
      const Perfetto__Protos__ProcessTree__Thread *t = tree->threads[i];
      gint64 pid = t->has_tgid ? t->tgid : TRACE_ID_UNKNOWN;

      if (!t->has_tid)
        continue;
      if (t->has_tgid)
        perfetto_reader_set_assoc (r, t->tid, t->tgid);
      if (t->name)
        perfetto_reader_thread_name (r, pid, t->tid, perfetto_reader_intern (r, t->name), ts);
    }
}

/* ---- descriptors ---- */

static guint32
descriptor_name (PerfettoReader *r,
                 const PerfettoTrackDescriptor *desc)
{
  switch (desc->static_or_dynamic_name_case)
    {
    case PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME:
      return perfetto_reader_intern (r, desc->name);
    case PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_STATIC_NAME:
      return perfetto_reader_intern (r, desc->static_name);
    case PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_ATRACE_NAME:
      return perfetto_reader_intern (r, desc->atrace_name);
    default:
      return 0;
    }
}

/* `name id: 3` is the counter `name` with instance id 3. */
static void
counter_name (PerfettoReader *r,
              PerfettoRTrack *t,
              const char *name)
{
  const char *sep = name ? g_strrstr (name, PERFETTO_COUNTER_ID_SEPARATOR) : NULL;
  const char *digits = sep ? sep + strlen (PERFETTO_COUNTER_ID_SEPARATOR) : NULL;
  char *end = NULL;
  guint64 id = 0;

  if (digits && g_ascii_isdigit (digits[0]))
    id = g_ascii_strtoull (digits, &end, 10);
  if (end && *end == '\0' && id != 0)
    {
      t->name = trace_string_pool_intern_len (r->pool, name, (gsize) (sep - name));
      t->id = id;
    }
  else
    t->name = perfetto_reader_intern (r, name);
}

/* Thread time counters (Chrome's, and perfetto-sink's `thread_time` of a
 * thread) give the thread time of the events that carry their values. */
static void
describe_counter (PerfettoReader *r,
                  PerfettoRTrack *t,
                  const PerfettoTrackDescriptor *desc,
                  const PerfettoRTrack *parent)
{
  const Perfetto__Protos__CounterDescriptor *counter = desc->counter;
  const char *name = desc->static_or_dynamic_name_case ? desc->name : NULL;

  counter_name (r, t, name);
  t->unit = perfetto_reader_intern (r, counter->unit_name);
  t->multiplier = counter->has_unit_multiplier ? counter->unit_multiplier : 0;
  t->incremental = counter->has_is_incremental && counter->is_incremental;
  t->total = 0;
  t->thread_time = counter->type == PERFETTO__PROTOS__COUNTER_DESCRIPTOR__BUILTIN_COUNTER_TYPE__COUNTER_THREAD_TIME_NS ||
                   (parent && parent->kind == PERFETTO_RTRACK_THREAD && g_strcmp0 (name, "thread_time") == 0);
  /* whose time it is, for the events of other tracks that carry it */
  if (t->thread_time && parent && parent->kind == PERFETTO_RTRACK_THREAD)
    t->tid = parent->tid;
}

static void
describe_thread (PerfettoReader *r,
                 PerfettoRTrack *t,
                 const Perfetto__Protos__ThreadDescriptor *thread,
                 gint64 ts)
{
  t->kind = PERFETTO_RTRACK_THREAD;
  t->pid = thread->has_pid ? thread->pid : TRACE_ID_UNKNOWN;
  t->tid = thread->has_tid ? thread->tid : t->pid;
  if (t->pid != TRACE_ID_UNKNOWN)
    perfetto_reader_set_assoc (r, t->tid, t->pid);
  if (thread->thread_name)
    perfetto_reader_thread_name (r, t->pid, t->tid, perfetto_reader_intern (r, thread->thread_name), ts);
  if (thread->has_legacy_sort_index)
    sort_index (r, r->thread_sort, TRACE_EVENT_THREAD_SORT_INDEX, t->pid, t->tid,
                thread->legacy_sort_index, ts);
}

static void
describe_process (PerfettoReader *r,
                  PerfettoRTrack *t,
                  const Perfetto__Protos__ProcessDescriptor *proc,
                  gint64 ts)
{
  t->kind = PERFETTO_RTRACK_PROCESS;
  t->pid = proc->has_pid ? proc->pid : TRACE_ID_UNKNOWN;
  if (t->pid == TRACE_ID_UNKNOWN)
    return;
  /* the app's own name for itself, below the system's; trace_processor
   * ignores a descriptor's cmdline */
  if (proc->process_name)
    process_name (r, t->pid, perfetto_reader_intern (r, proc->process_name), TRACE_EVENT_FLAG_APP_NAME, ts);
  if (proc->has_legacy_sort_index)
    sort_index (r, r->proc_sort, TRACE_EVENT_PROCESS_SORT_INDEX, t->pid, TRACE_ID_UNKNOWN,
                proc->legacy_sort_index, ts);
  process_labels (r, t->pid, proc, ts);
}

/**
 * perfetto_reader_track_descriptor:
 * @r: a #PerfettoReader
 * @desc: a track descriptor
 * @ts: its time
 */
void
perfetto_reader_track_descriptor (PerfettoReader *r,
                                  PerfettoTrackDescriptor *desc,
                                  gint64 ts)
{
  PerfettoRTrack *t, *parent = NULL;
  guint64 uuid = desc->uuid;

  if (!desc->has_uuid)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "track descriptor without a uuid");
      return;
    }
  t = g_hash_table_lookup (r->tracks, &uuid);
  if (t == NULL)
    {
      t = g_new0 (PerfettoRTrack, 1);
      t->uuid = uuid;
      g_hash_table_insert (r->tracks, &t->uuid, t);
    }
  if (desc->has_parent_uuid)
    parent = g_hash_table_lookup (r->tracks, &desc->parent_uuid);
  t->pid = parent ? parent->pid : TRACE_ID_UNKNOWN;
  t->tid = TRACE_ID_UNKNOWN;
  if (desc->thread)
    {
      describe_thread (r, t, desc->thread, ts);
      /* a thread Chrome did not name is named by its kind, as
       * trace_processor names it */
      if (desc->thread->thread_name == NULL && desc->chrome_thread && desc->chrome_thread->has_thread_type)
        perfetto_reader_thread_name (r, t->pid, t->tid,
                                     perfetto_reader_intern (r, perfetto_chrome_thread_name (desc->chrome_thread->thread_type)),
                                     ts);
    }
  else if (desc->process)
    describe_process (r, t, desc->process, ts);
  else if (desc->counter)
    {
      t->kind = PERFETTO_RTRACK_COUNTER;
      describe_counter (r, t, desc, parent);
    }
  else if (parent && parent->kind == PERFETTO_RTRACK_THREAD && descriptor_name (r, desc) == 0)
    {
      /* A nameless child of a thread track: perfetto-sink's overflow
       * track for overlapping complete slices; they are the thread's. */
      t->kind = PERFETTO_RTRACK_THREAD;
      t->tid = parent->tid;
    }
  else
    {
      t->name = descriptor_name (r, desc);
      t->kind = parent == NULL && t->name == r->k_global_track ? PERFETTO_RTRACK_GLOBAL : PERFETTO_RTRACK_NAMED;
    }
}

/* ---- TrackEvents ---- */

guint32
perfetto_reader_event_category (PerfettoReader *r,
                                PerfettoSeq *seq,
                                const PerfettoTrackEvent *te)
{
  g_autoptr (GString) joined = NULL;

  if (te->n_category_iids == 1)
    return perfetto_reader_lookup_string (r, seq->categories, te->category_iids[0]);
  if (te->n_categories == 1)
    return perfetto_reader_intern (r, te->categories[0]);
  if (te->n_category_iids == 0 && te->n_categories == 0)
    return 0;
  /* Several categories: one string, as Chrome JSON writes them. */
  joined = g_string_new (NULL);
  for (gsize i = 0; i < te->n_category_iids; i++)
    g_string_append_printf (joined, "%s%s", i ? "," : "",
                            trace_string_pool_get (r->pool, perfetto_reader_lookup_string (r, seq->categories,
                                                                                           te->category_iids[i])));
  for (gsize i = 0; i < te->n_categories; i++)
    g_string_append_printf (joined, "%s%s", joined->len ? "," : "", te->categories[i]);
  return perfetto_reader_intern (r, joined->str);
}

guint32
perfetto_reader_event_name (PerfettoReader *r,
                            PerfettoSeq *seq,
                            const PerfettoTrackEvent *te)
{
  if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID)
    return perfetto_reader_lookup_string (r, seq->names, te->name_iid);
  if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME)
    return perfetto_reader_intern (r, te->name);
  return 0;
}

static void add_annotation (PerfettoReader *r,
                            PerfettoSeq *seq,
                            TraceEvent *ev,
                            const PerfettoAnnotation *a,
                            const char *prefix,
                            gint index);

#define PERFETTO_NESTED_VALUE_MAX_DEPTH 64

/* Whether a nested value at @depth is past the limit (then counted). */
static gboolean
nested_too_deep (PerfettoReader *r,
                 guint depth)
{
  if (depth <= PERFETTO_NESTED_VALUE_MAX_DEPTH)
    return FALSE;
  perfetto_reader_skip (r, &r->stats.unsupported_events, 1,
                        "nested debug annotation deeper than " G_STRINGIFY (PERFETTO_NESTED_VALUE_MAX_DEPTH));
  return TRUE;
}

/* A nested_value tree flattened to the keys trace_processor gives it
 * (`key.member`, `key[i]`, an array's elements numbered among those
 * that hold a value). Returns: whether it added an arg. */
static gboolean
add_nested_value (PerfettoReader *r,
                  TraceEvent *ev,
                  const Perfetto__Protos__DebugAnnotation__NestedValue *v,
                  const char *key,
                  guint depth)
{
  TraceBatch *b = r->batch;
  gboolean added = FALSE;
  guint32 id;

  if (nested_too_deep (r, depth))
    return FALSE;
  switch (v->nested_type)
    {
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__NESTED_VALUE__NESTED_TYPE__DICT:
      for (gsize i = 0; i < MIN (v->n_dict_keys, v->n_dict_values); i++)
        {
          g_autofree char *member = g_strdup_printf ("%s.%s", key, v->dict_keys[i]);

          added |= add_nested_value (r, ev, v->dict_values[i], member, depth + 1);
        }
      return added;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__NESTED_VALUE__NESTED_TYPE__ARRAY:
      for (gsize i = 0, n = 0; i < v->n_array_values; i++)
        {
          g_autofree char *element = g_strdup_printf ("%s[%" G_GSIZE_FORMAT "]", key, n);

          if (add_nested_value (r, ev, v->array_values[i], element, depth + 1))
            n++, added = TRUE;
        }
      return added;
    default:
      if (!v->has_bool_value && !v->has_int_value && !v->has_double_value && v->string_value == NULL)
        return FALSE;
      id = perfetto_reader_intern (r, key);
      if (v->has_bool_value)
        trace_batch_add_arg (b, ev, id, TRACE_ARG_BOOL)->v.b = v->bool_value;
      else if (v->has_int_value)
        trace_batch_add_arg (b, ev, id, TRACE_ARG_INT)->v.i = v->int_value;
      else if (v->has_double_value)
        trace_batch_add_arg (b, ev, id, TRACE_ARG_DOUBLE)->v.d = v->double_value;
      else
        trace_batch_add_arg (b, ev, id, TRACE_ARG_STRING)->v.s = perfetto_reader_intern (r, v->string_value);
      return TRUE;
    }
}

static void
add_json_scalar (PerfettoReader *r,
                 TraceEvent *ev,
                 JsonNode *node,
                 guint32 key)
{
  TraceBatch *b = r->batch;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_INT)->v.i = json_node_get_int (node);
      break;
    case G_TYPE_DOUBLE:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_DOUBLE)->v.d = json_node_get_double (node);
      break;
    case G_TYPE_BOOLEAN:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_BOOL)->v.b = json_node_get_boolean (node);
      break;
    default:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_STRING)->v.s = perfetto_reader_intern (r, json_node_get_string (node));
      break;
    }
}

/* A JSON value flattened as trace_processor flattens a JSON event's args
 * (json_args.cc): `key.member`, `key[i]` numbered among the elements that
 * are not null. An empty array or object is a value-less arg: inside an
 * array it keeps its index, as perfetto-sink writes it back. Deeper than
 * PERFETTO_NESTED_VALUE_MAX_DEPTH: counted. */
static void
add_json_node (PerfettoReader *r,
               TraceEvent *ev,
               JsonNode *node,
               const char *key,
               guint depth)
{
  TraceBatch *b = r->batch;

  if (nested_too_deep (r, depth))
    return;
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr (GList) members = json_object_get_members (json_node_get_object (node));

      if (members == NULL)
        trace_batch_add_arg (b, ev, perfetto_reader_intern (r, key), TRACE_ARG_EMPTY_OBJECT);
      for (GList *m = members; m != NULL; m = m->next)
        {
          g_autofree char *member = g_strdup_printf ("%s.%s", key, (const char *) m->data);

          add_json_node (r, ev, json_object_get_member (json_node_get_object (node), m->data), member, depth + 1);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);
      guint n = 0;

      if (json_array_get_length (a) == 0)
        trace_batch_add_arg (b, ev, perfetto_reader_intern (r, key), TRACE_ARG_EMPTY_ARRAY);
      for (guint i = 0; i < json_array_get_length (a); i++)
        if (!JSON_NODE_HOLDS_NULL (json_array_get_element (a, i)))
          {
            g_autofree char *element = g_strdup_printf ("%s[%u]", key, n++);

            add_json_node (r, ev, json_array_get_element (a, i), element, depth + 1);
          }
    }
  else if (JSON_NODE_HOLDS_VALUE (node))
    add_json_scalar (r, ev, node, perfetto_reader_intern (r, key));
}

/* A `legacy_json_value` reads as trace_processor reads it: its JSON
 * flattened to args; text that is no JSON stays one string. */
static void
add_legacy_json (PerfettoReader *r,
                 TraceEvent *ev,
                 const char *json,
                 guint32 key)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();

  if (!json_parser_load_from_data (parser, json, -1, NULL) || json_parser_get_root (parser) == NULL)
    {
      trace_batch_add_arg (r->batch, ev, key, TRACE_ARG_STRING)->v.s = perfetto_reader_intern (r, json);
      return;
    }
  add_json_node (r, ev, json_parser_get_root (parser), key ? trace_string_pool_get (r->pool, key) : "", 0);
}

static void
add_annotation_value (PerfettoReader *r,
                      PerfettoSeq *seq,
                      TraceEvent *ev,
                      const PerfettoAnnotation *a,
                      guint32 key)
{
  TraceBatch *b = r->batch;

  switch (a->value_case)
    {
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_BOOL)->v.b = a->bool_value;
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_UINT)->v.u = a->uint_value;
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_INT)->v.i = a->int_value;
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_DOUBLE)->v.d = a->double_value;
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_POINTER)->v.u = a->pointer_value;
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_STRING)->v.s = perfetto_reader_intern (r, a->string_value);
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE:
      add_legacy_json (r, ev, a->legacy_json_value, key);
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_NESTED_VALUE:
      add_nested_value (r, ev, a->nested_value, key ? trace_string_pool_get (r->pool, key) : "", 0);
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID:
      trace_batch_add_arg (b, ev, key, TRACE_ARG_STRING)->v.s =
          perfetto_reader_lookup_string (r, seq->str_values, a->string_value_iid);
      break;
    default:
      if (a->n_dict_entries == 0 && a->n_array_values == 0)
        perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "debug annotation of a kind the event model cannot carry");
      break;
    }
}

/* Nested annotations come back flattened to dotted keys (`a.b`, `a[0]`),
 * the keys trace_processor gives them too. */
static void
add_annotation (PerfettoReader *r,
                PerfettoSeq *seq,
                TraceEvent *ev,
                const PerfettoAnnotation *a,
                const char *prefix,
                gint index)
{
  g_autofree char *nested = NULL;
  guint32 key = 0;

  if (a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID)
    key = perfetto_reader_lookup_string (r, seq->ann_names, a->name_iid);
  else if (a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME)
    key = perfetto_reader_intern (r, a->name);
  if (prefix != NULL)
    {
      nested = index >= 0 ? g_strdup_printf ("%s[%d]", prefix, index)
                          : g_strdup_printf ("%s.%s", prefix, trace_string_pool_get (r->pool, key));
      key = perfetto_reader_intern (r, nested);
    }
  for (gsize i = 0; i < a->n_dict_entries; i++)
    add_annotation (r, seq, ev, a->dict_entries[i], trace_string_pool_get (r->pool, key), -1);
  for (gsize i = 0; i < a->n_array_values; i++)
    add_annotation (r, seq, ev, a->array_values[i], trace_string_pool_get (r->pool, key), (gint) i);
  add_annotation_value (r, seq, ev, a, key);
}

void
perfetto_reader_event_args (PerfettoReader *r,
                            PerfettoSeq *seq,
                            TraceEvent *ev,
                            const PerfettoTrackEvent *te)
{
  for (gsize i = 0; i < te->n_debug_annotations; i++)
    add_annotation (r, seq, ev, te->debug_annotations[i], NULL, -1);
}

/* Binds one flow to the slice; past TRACE_SLICE_MAX_FLOWS it is counted
 * (skipped-flow-ids, and with its reason in the unsupported events). */
static void
bind_flow (PerfettoReader *r,
           TraceEvent *ev,
           guint64 flow_in,
           guint64 flow_out)
{
  if (trace_batch_add_slice_flow (r->batch, ev, flow_in, flow_out))
    return;
  r->stats.extra_flows++;
  perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "flow id past the " G_STRINGIFY (TRACE_SLICE_MAX_FLOWS) " a slice binds");
}

/* flow_ids start a flow or, when the id is already flowing, continue it
 * (as trace_processor reads them); terminating_flow_ids end it. Each is
 * bound in the order given, the first pair in a thread slice's own
 * fields, all of an async event's in its args. */
void
perfetto_reader_event_flows (PerfettoReader *r,
                             TraceEvent *ev,
                             const PerfettoTrackEvent *te)
{
  const Perfetto__Protos__TrackEvent__LegacyEvent *legacy = te->legacy_event;
  /* the deprecated fields count only when the current ones are absent */
  gsize n_flow_ids = te->n_flow_ids ? te->n_flow_ids : te->n_flow_ids_old;
  const guint64 *flow_ids = te->n_flow_ids ? te->flow_ids : te->flow_ids_old;
  gsize n_terminating = te->n_terminating_flow_ids ? te->n_terminating_flow_ids : te->n_terminating_flow_ids_old;
  const guint64 *terminating = te->n_terminating_flow_ids ? te->terminating_flow_ids : te->terminating_flow_ids_old;

  /* Chrome flow v2 as perfetto-sink writes a JSON stream's slice flows */
  if (legacy && legacy->has_bind_id && legacy->has_flow_direction)
    {
      gboolean in = legacy->flow_direction != PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__FLOW_DIRECTION__FLOW_OUT;
      gboolean out = legacy->flow_direction != PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__FLOW_DIRECTION__FLOW_IN;

      ev->flags |= TRACE_EVENT_FLAG_FLOW_V2;
      bind_flow (r, ev, in ? legacy->bind_id : 0, out ? legacy->bind_id : 0);
    }
  for (gsize i = 0; i < n_flow_ids; i++)
    {
      guint64 id = flow_ids[i];

      if (g_hash_table_contains (r->active_flows, &id))
        bind_flow (r, ev, id, id);
      else
        {
          g_hash_table_add (r->active_flows, perfetto_int64_dup ((gint64) id));
          bind_flow (r, ev, 0, id);
        }
    }
  for (gsize i = 0; i < n_terminating; i++)
    {
      guint64 id = terminating[i];

      bind_flow (r, ev, id, 0);
      g_hash_table_remove (r->active_flows, &id);
    }
}

/* One value of a counter track: scaled by its unit multiplier and, on an
 * incremental track, added to the track's running total (as
 * trace_processor turns them into absolute values). */
static double
absolute_value (PerfettoRTrack *track,
                double value)
{
  if (track->multiplier != 0)
    value *= (double) track->multiplier;
  if (track->incremental)
    value = track->total += value;
  return value;
}

static void
counter_value (PerfettoReader *r,
               PerfettoRTrack *track,
               double value,
               gboolean is_int,
               gint64 ts)
{
  TraceEvent *ev = perfetto_reader_emit (r, TRACE_EVENT_COUNTER, ts);

  value = absolute_value (track, value);
  ev->pid = track->pid;
  ev->name = track->name;
  ev->u.counter.id = track->id;
  ev->u.counter.unit = track->unit;
  ev->u.counter.value = value;
  if (is_int && value == (double) (gint64) value)
    ev->flags |= TRACE_EVENT_FLAG_COUNTER_INT;
}

static void
read_counter (PerfettoReader *r,
              PerfettoRTrack *track,
              const PerfettoTrackEvent *te,
              gint64 ts)
{
  if (track->kind != PERFETTO_RTRACK_COUNTER)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "counter value on a track that is no counter track");
      return;
    }
  if (te->counter_value_field_case == PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE)
    counter_value (r, track, (double) te->counter_value, TRUE, ts);
  else if (te->counter_value_field_case == PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE)
    counter_value (r, track, te->double_counter_value, FALSE, ts);
  else
    perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "counter event without a value");
}

/* Returns: the value of the event's string arg @key, 0 if none */
guint32
perfetto_reader_string_arg (TraceBatch *batch,
                            const TraceEvent *ev,
                            guint32 key)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);

  for (guint i = 0; i < ev->n_args; i++)
    if (args[i].key == key && args[i].type == TRACE_ARG_STRING)
      return args[i].v.s;
  return 0;
}

static TraceEventKind
async_kind (PerfettoReader *r,
            const PerfettoTrackEvent *te)
{
  switch (te->type)
    {
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN:
      return TRACE_EVENT_ASYNC_BEGIN;
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END:
      return TRACE_EVENT_ASYNC_END;
    default:
      return TRACE_EVENT_ASYNC_INSTANT;
    }
}

static void
read_async (PerfettoReader *r,
            PerfettoSeq *seq,
            PerfettoRTrack *track,
            const PerfettoTrackEvent *te,
            guint64 id,
            gint64 ts)
{
  TraceEventKind kind = async_kind (r, te);
  TraceEvent *ev = perfetto_reader_emit (r, kind, ts);

  ev->pid = track->pid;
  if (track->pid == TRACE_ID_UNKNOWN)
    ev->flags |= TRACE_EVENT_FLAG_ID_GLOBAL;
  ev->name = perfetto_reader_event_name (r, seq, te);
  ev->category = perfetto_reader_event_category (r, seq, te);
  ev->u.async.id = id;
  /* The track is named after the slice unless the slice named a track;
   * events inside an open slice share the slice's. */
  if (kind == TRACE_EVENT_ASYNC_BEGIN && track->async_depth++ == 0)
    {
      track->async_track = ev->name != track->name ? track->name : 0;
      track->async_category = ev->category;
    }
  if (kind == TRACE_EVENT_ASYNC_END || track->async_depth > 0)
    ev->u.async.track = track->async_track;
  else
    ev->u.async.track = ev->name != track->name ? track->name : 0;
  /* A TrackEvent end names no category; an async family is keyed by its
   * category (perfetto-sink keys them as trace_processor keys JSON ones):
   * the end gets the category of the track's slices.  Also with none
   * open: in file order an end may come before the begin it closes
   * (another producer's chunk), which trace_processor pairs after
   * sorting by time. */
  if (kind == TRACE_EVENT_ASYNC_END && ev->category == 0)
    ev->category = track->async_category;
  if (kind == TRACE_EVENT_ASYNC_END && track->async_depth > 0)
    track->async_depth--;
  perfetto_reader_recorder_thread_time (r, seq, ev, te);
  perfetto_reader_event_args (r, seq, ev, te);
  perfetto_reader_event_flows (r, ev, te);
  if (kind == TRACE_EVENT_ASYNC_INSTANT && (ev->u.async.step = perfetto_reader_string_arg (r->batch, ev, r->k_step)))
    ev->kind = TRACE_EVENT_ASYNC_STEP;
}

static TraceEventKind
slice_kind (const PerfettoTrackEvent *te)
{
  switch (te->type)
    {
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN:
      return TRACE_EVENT_SLICE_BEGIN;
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END:
      return TRACE_EVENT_SLICE_END;
    default:
      return TRACE_EVENT_INSTANT;
    }
}

static void
read_slice (PerfettoReader *r,
            PerfettoSeq *seq,
            PerfettoRTrack *track,
            const PerfettoTrackEvent *te,
            gint64 ts)
{
  TraceEventKind kind = slice_kind (te);
  TraceEvent *ev = perfetto_reader_emit (r, kind, ts);

  ev->pid = track->pid;
  ev->tid = track->tid;
  ev->name = perfetto_reader_event_name (r, seq, te);
  ev->category = perfetto_reader_event_category (r, seq, te);
  if (track->kind == PERFETTO_RTRACK_NAMED)
    {
      ev->u.slice.track = track->name;
      if (kind == TRACE_EVENT_INSTANT)
        ev->flags |= TRACE_EVENT_FLAG_SCOPE_PROCESS;
    }
  else if (track->kind == PERFETTO_RTRACK_PROCESS)
    ev->flags |= TRACE_EVENT_FLAG_SCOPE_PROCESS;
  else if (track->kind == PERFETTO_RTRACK_GLOBAL)
    ev->flags |= TRACE_EVENT_FLAG_SCOPE_GLOBAL;
  if ((track->kind == PERFETTO_RTRACK_PROCESS || track->kind == PERFETTO_RTRACK_GLOBAL) && kind == TRACE_EVENT_INSTANT)
    perfetto_reader_recorder_thread_time (r, seq, ev, te);
  else
    perfetto_reader_event_thread_time (r, seq, ev, te);
  perfetto_reader_event_args (r, seq, ev, te);
  perfetto_reader_event_flows (r, ev, te);
}

/* A track used but never declared (a producer's descriptor lost):
 * trace_processor still shows its slices and instants, on a root track of
 * no thread; so do we, as global ones. Still counted in unknown_track. */
static PerfettoRTrack *
undeclared_track (PerfettoReader *r,
                  guint64 uuid)
{
  PerfettoRTrack *t = g_new0 (PerfettoRTrack, 1);

  t->uuid = uuid;
  t->kind = PERFETTO_RTRACK_GLOBAL;
  t->pid = t->tid = TRACE_ID_UNKNOWN;
  g_hash_table_insert (r->tracks, &t->uuid, t);
  return t;
}

/* The thread time the event states, in ns, or -1: absolute, or a delta
 * on the sequence's running value (advanced by every event that has one,
 * as trace_processor does). */
static gint64
event_thread_ts (PerfettoSeq *seq,
                 const PerfettoTrackEvent *te)
{
  switch (te->thread_time_case)
    {
    case PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_DELTA_US:
      seq->thread_time_us = trace_time_add_saturated (seq->thread_time_us, te->thread_time_delta_us);
      return perfetto_us_to_ns (seq->thread_time_us);
    case PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_ABSOLUTE_US:
      return perfetto_us_to_ns (te->thread_time_absolute_us);
    default:
      return -1;
    }
}

/**
 * perfetto_reader_event_thread_time:
 * @r: a #PerfettoReader
 * @seq: the event's sequence
 * @ev: a slice, async, flow or Chrome phase event made of the
 *   TrackEvent being read
 * @te: that TrackEvent
 *
 * Gives @ev the thread time the TrackEvent stated, if any: of every
 * event, not only thread slices, since trace_processor makes a value of
 * the thread's `thread_time` counter of each.
 */
void
perfetto_reader_event_thread_time (PerfettoReader *r,
                                   PerfettoSeq *seq,
                                   TraceEvent *ev,
                                   const PerfettoTrackEvent *te)
{
  if (trace_event_is_slice_like (ev->kind))
    {
      ev->u.slice.thread_ts = r->event_thread_ts;
      ev->u.slice.thread_dur = -1;
    }
  else if (ev->kind == TRACE_EVENT_CHROME_PHASE)
    ev->u.chrome_phase.thread_ts = r->event_thread_ts;
  else
    ev->u.async.thread_ts = r->event_thread_ts;
  if (r->event_thread_ts >= 0)
    ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
}

/**
 * perfetto_reader_recorder_thread_time:
 * @r: a #PerfettoReader
 * @seq: the event's sequence
 * @ev: an async event or a process or global instant, of a track of no
 *   thread, made of the TrackEvent being read
 * @te: that TrackEvent
 *
 * Gives @ev the thread time of a thread_time counter value the
 * TrackEvent carries, and that thread as its tid, when the thread is of
 * @ev's process or @ev is of no process (a global track, whose events
 * perfetto-sink writes with the thread time of the thread that recorded
 * them): trace_processor makes a value of that counter of it, whatever
 * track the event is on.
 */
void
perfetto_reader_recorder_thread_time (PerfettoReader *r,
                                      PerfettoSeq *seq,
                                      TraceEvent *ev,
                                      const PerfettoTrackEvent *te)
{
  if (!r->event_thread_ts_counted || r->event_thread_tid == TRACE_ID_UNKNOWN)
    return;
  if (ev->pid == TRACE_ID_UNKNOWN)
    ev->pid = r->event_thread_pid;
  else if (ev->pid != r->event_thread_pid)
    return;
  ev->tid = r->event_thread_tid;
  perfetto_reader_event_thread_time (r, seq, ev, te);
}

/* The counter tracks of extra values: the event's, else its sequence's
 * defaults. Returns: how many there are (a mismatch is counted). */
static gsize
extra_tracks (PerfettoReader *r,
              gsize n_values,
              const guint64 *own,
              gsize n_own,
              const GArray *defaults, /* NULL for none */
              const guint64 **uuids)
{
  gsize n = n_own > 0 ? n_own : defaults ? defaults->len
                                         : 0;

  *uuids = n_own > 0 || defaults == NULL ? own : (const guint64 *) (gpointer) defaults->data;
  if (n_values > n)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, n_values - n, "extra counter value without a track");
      return n;
    }
  return n_values;
}

static void
extra_value (PerfettoReader *r,
             guint64 uuid,
             double value,
             gboolean is_int,
             gint64 ts)
{
  PerfettoRTrack *track = g_hash_table_lookup (r->tracks, &uuid);

  if (track == NULL || track->kind != PERFETTO_RTRACK_COUNTER)
    {
      perfetto_reader_skip (r, &r->stats.unknown_track, 1, "extra counter value on a track that is no counter track");
      return;
    }
  if (track->thread_time)
    return; /* taken as the event's thread time */
  counter_value (r, track, value, is_int, ts);
}

/* extra_counter_values: counter values sampled with the event (Chrome's
 * thread time, the SDK's TRACE_COUNTER-alongside). A value on a thread
 * time counter is the event's thread time instead. */
static void
read_extra_counters (PerfettoReader *r,
                     PerfettoSeq *seq,
                     const PerfettoTrackEvent *te,
                     gint64 ts)
{
  const guint64 *uuids;
  gsize n;

  n = extra_tracks (r, te->n_extra_counter_values, te->extra_counter_track_uuids,
                    te->n_extra_counter_track_uuids, seq->extra_counter_tracks, &uuids);
  for (gsize i = 0; i < n; i++)
    extra_value (r, uuids[i], (double) te->extra_counter_values[i], TRUE, ts);
  n = extra_tracks (r, te->n_extra_double_counter_values, te->extra_double_counter_track_uuids,
                    te->n_extra_double_counter_track_uuids, seq->extra_double_counter_tracks, &uuids);
  for (gsize i = 0; i < n; i++)
    extra_value (r, uuids[i], te->extra_double_counter_values[i], FALSE, ts);
}

/* A thread time counter among the extra values gives the event's thread
 * time when it states none itself. */
static gint64
extra_thread_ts (PerfettoReader *r,
                 PerfettoSeq *seq,
                 const PerfettoTrackEvent *te)
{
  const guint64 *uuids;
  gsize n = extra_tracks (r, te->n_extra_counter_values, te->extra_counter_track_uuids,
                          te->n_extra_counter_track_uuids, seq->extra_counter_tracks, &uuids);

  for (gsize i = 0; i < n; i++)
    {
      PerfettoRTrack *track = g_hash_table_lookup (r->tracks, &uuids[i]);

      if (track && track->kind == PERFETTO_RTRACK_COUNTER && track->thread_time)
        {
          r->event_thread_pid = track->pid;
          r->event_thread_tid = track->tid;
          return (gint64) absolute_value (track, (double) te->extra_counter_values[i]);
        }
    }
  return -1;
}

/* The event's track: the one it names, else its sequence's default; a
 * typeless (legacy) event or one on no track goes to its sequence's
 * thread, as trace_processor falls back to the sequence's pid and tid. */
static PerfettoRTrack *
event_track (PerfettoReader *r,
             PerfettoSeq *seq,
             const PerfettoTrackEvent *te,
             gint64 ts)
{
  guint64 uuid = te->has_track_uuid ? te->track_uuid : seq->default_track;
  PerfettoRTrack *track;

  if (uuid == 0 && seq->has_thread && (!te->has_track_uuid || !te->has_type))
    return &seq->thread_track;
  track = g_hash_table_lookup (r->tracks, &uuid);
  if (track != NULL)
    return track;
  if (perfetto_reader_declare_ahead (r, uuid, ts))
    return g_hash_table_lookup (r->tracks, &uuid);
  perfetto_reader_skip (r, &r->stats.unknown_track, 1, "TrackEvent on a track no descriptor declared");
  if (te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER)
    return NULL;
  return undeclared_track (r, uuid);
}

static void
read_typed (PerfettoReader *r,
            PerfettoSeq *seq,
            PerfettoRTrack *track,
            const PerfettoTrackEvent *te,
            gint64 ts)
{
  gboolean correlated = te->correlation_id_field_case ==
                        PERFETTO__PROTOS__TRACK_EVENT__CORRELATION_ID_FIELD_CORRELATION_ID;

  switch (te->type)
    {
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER:
      read_counter (r, track, te, ts);
      break;
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN:
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END:
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT:
      if (track->kind == PERFETTO_RTRACK_COUNTER)
        perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "slice on a counter track");
      else if (track->kind == PERFETTO_RTRACK_NAMED && correlated)
        read_async (r, seq, track, te, te->correlation_id, ts);
      else if (track->kind != PERFETTO_RTRACK_THREAD && te->type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT &&
               (track->kind != PERFETTO_RTRACK_NAMED || track->name == 0))
        /* Slices on a process, the global track or a track that has no
         * name (Chrome's async tracks: a uuid, maybe a parent, no
         * more): async slices of their own track, which
         * trace_processor keeps apart from the other tracks' slices. */
        read_async (r, seq, track, te, track->uuid, ts);
      else
        read_slice (r, seq, track, te, ts);
      break;
    default:
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "TrackEvent of an unknown type");
      break;
    }
}

/* The thread's instruction count at the event: a counter of the thread,
 * `thread_instruction_count`, as trace_processor makes one (absolute, or
 * a delta on the sequence's running value). */
static void
read_instruction_count (PerfettoReader *r,
                        PerfettoSeq *seq,
                        const PerfettoRTrack *track,
                        const PerfettoTrackEvent *te,
                        gint64 ts)
{
  TraceEvent *ev;
  gint64 value;

  switch (te->thread_instruction_count_case)
    {
    case PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_DELTA:
      value = seq->instructions += te->thread_instruction_count_delta;
      break;
    case PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_ABSOLUTE:
      value = te->thread_instruction_count_absolute;
      break;
    default:
      return;
    }
  if (track == NULL || track->tid == TRACE_ID_UNKNOWN)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "instruction count of an event on no thread");
      return;
    }
  ev = perfetto_reader_emit (r, TRACE_EVENT_COUNTER, ts);
  ev->pid = track->pid;
  ev->tid = track->tid;
  ev->name = r->k_instruction_count;
  ev->u.counter.value = (double) value;
  ev->flags |= TRACE_EVENT_FLAG_COUNTER_INT;
}

/**
 * perfetto_reader_track_event:
 * @r: a #PerfettoReader
 * @seq: the packet's sequence
 * @te: a TrackEvent
 * @ts: the packet's time
 */
void
perfetto_reader_track_event (PerfettoReader *r,
                             PerfettoSeq *seq,
                             PerfettoTrackEvent *te,
                             gint64 ts)
{
  PerfettoRTrack *track = event_track (r, seq, te, ts);

  r->event_thread_ts = event_thread_ts (seq, te);
  r->event_thread_ts_counted = r->event_thread_ts < 0;
  r->event_thread_tid = TRACE_ID_UNKNOWN;
  if (r->event_thread_ts < 0)
    r->event_thread_ts = extra_thread_ts (r, seq, te);
  r->event_thread_ts_counted &= r->event_thread_ts >= 0;
  if (track != NULL)
    {
      if (te->legacy_event && te->legacy_event->has_phase)
        perfetto_reader_legacy_event (r, seq, track, te, ts);
      else
        read_typed (r, seq, track, te, ts);
    }
  read_extra_counters (r, seq, te, ts);
  read_instruction_count (r, seq, track, te, ts);
}
