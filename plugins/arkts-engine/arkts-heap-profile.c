/* tracepipe - arkts: sampling heap profiles (.heapprofile)
 *
 * `{"head":{callFrame, selfSize, children:[…]}, "samples":[…]}`: the
 * allocations still alive at the end, sampled, attributed to call stacks.
 * No times, so everything sits at the reader's start time: the call tree
 * as stack nodes, a counter of the sampled size and a summary of the
 * functions that hold the most.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "arkts-engine.h"

typedef struct
{
  guint32 name;
  guint32 url;
  guint64 self_size;
  guint64 nodes;
} FunctionSize;

typedef struct
{
  ArktsEnv *env;
  TraceBatch *out;
  gint64 ts;
  guint64 nodes;
  guint64 self_size;
  GArray *functions;       /* FunctionSize */
  GHashTable *by_function; /* "name:url" → index + 1 */
} HeapProfile;

static void
add_function (HeapProfile *hp,
              guint32 name,
              guint32 url,
              gint64 self_size)
{
  g_autofree char *key = g_strdup_printf ("%u:%u", name, url);
  gsize pos = GPOINTER_TO_SIZE (g_hash_table_lookup (hp->by_function, key));
  FunctionSize *f;

  if (pos == 0)
    {
      FunctionSize fresh = { name, url, 0, 0 };
      g_array_append_val (hp->functions, fresh);
      pos = hp->functions->len;
      g_hash_table_insert (hp->by_function, g_steal_pointer (&key), GSIZE_TO_POINTER (pos));
    }
  f = &g_array_index (hp->functions, FunctionSize, pos - 1);
  f->self_size += (guint64) MAX (self_size, 0);
  f->nodes++;
}

static void
emit_node (HeapProfile *hp,
           JsonObject *node,
           guint64 id,
           guint64 parent_id)
{
  JsonObject *frame = json_object_has_member (node, "callFrame") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (node, "callFrame"))
                          ? json_object_get_object_member (node, "callFrame")
                          : node;
  const char *name = arkts_json_get_string (frame, "functionName");
  const char *url = arkts_json_get_string (frame, "url");
  gint64 self_size = arkts_json_get_int (node, "selfSize", 0);
  gint64 line = arkts_json_get_int (frame, "lineNumber", -1);
  gint64 column = arkts_json_get_int (frame, "columnNumber", -1);
  guint32 name_id = trace_string_pool_intern (hp->env->pool, name && *name ? name : "(anonymous)");
  guint32 url_id = url && *url ? trace_string_pool_intern (hp->env->pool, url) : 0;
  TraceEvent *ev = arkts_append (hp->out, TRACE_EVENT_STACK_NODE, hp->ts, hp->env->pid, hp->env->tid, name_id);

  ev->u.stack_node.id = id;
  ev->u.stack_node.parent_id = parent_id;
  if (url_id)
    trace_batch_add_arg_string (hp->out, ev, "url", url);
  if (line >= 0)
    trace_batch_add_arg_int (hp->out, ev, "line", line);
  if (column >= 0)
    trace_batch_add_arg_int (hp->out, ev, "column", column);
  trace_batch_add_arg_int (hp->out, ev, "self_size", self_size);
  hp->nodes++;
  hp->self_size += (guint64) MAX (self_size, 0);
  add_function (hp, name_id, url_id, self_size);
}

/* Preorder with an explicit stack: allocation stacks can be deep. */
static void
walk_tree (HeapProfile *hp,
           JsonObject *head)
{
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  g_autoptr (GArray) parents = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 base = hp->env->next_stack_node_id;
  guint64 none = 0;

  g_ptr_array_add (stack, head);
  g_array_append_val (parents, none);
  while (stack->len > 0)
    {
      JsonObject *node = g_ptr_array_steal_index (stack, stack->len - 1);
      guint64 parent = g_array_index (parents, guint64, parents->len - 1);
      JsonNode *children_node = json_object_get_member (node, "children");
      JsonArray *children = children_node && JSON_NODE_HOLDS_ARRAY (children_node) ? json_node_get_array (children_node) : NULL;
      guint64 id = base + hp->nodes + 1;

      g_array_set_size (parents, parents->len - 1);
      emit_node (hp, node, id, parent);
      for (guint c = children ? json_array_get_length (children) : 0; c > 0; c--)
        {
          JsonNode *element = json_array_get_element (children, c - 1);
          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;
          g_ptr_array_add (stack, json_node_get_object (element));
          g_array_append_val (parents, id);
        }
    }
  hp->env->next_stack_node_id = base + hp->nodes;
}

static int
compare_sizes (gconstpointer a,
               gconstpointer b)
{
  const FunctionSize *x = a, *y = b;

  if (x->self_size != y->self_size)
    return x->self_size > y->self_size ? -1 : 1;
  if (x->name != y->name)
    return x->name < y->name ? -1 : 1;
  return x->url < y->url ? -1 : x->url > y->url;
}

static void
emit_summary (HeapProfile *hp,
              JsonObject *profile,
              ArktsJsonSkel *skel)
{
  TraceBatch *out = hp->out;
  ArktsNumbers samples;
  TraceEvent *ev = arkts_append (out, TRACE_EVENT_COUNTER, hp->ts, hp->env->pid, TRACE_ID_UNKNOWN,
                                 trace_string_pool_intern (hp->env->pool, "JS heap sampled size"));

  ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  ev->u.counter.value = (double) hp->self_size;
  ev->u.counter.unit = trace_string_pool_intern (hp->env->pool, "bytes");
  ev = arkts_append (out, TRACE_EVENT_INSTANT, hp->ts, hp->env->pid, TRACE_ID_UNKNOWN,
                     trace_string_pool_intern (hp->env->pool, "JS sampling heap profile"));
  ev->flags = hp->env->pid == TRACE_ID_UNKNOWN ? TRACE_EVENT_FLAG_SCOPE_GLOBAL : TRACE_EVENT_FLAG_SCOPE_PROCESS;
  trace_batch_add_arg_int (out, ev, "node_count", (gint64) hp->nodes);
  trace_batch_add_arg_int (out, ev, "self_size", (gint64) hp->self_size);
  if (arkts_numbers_lookup (skel, profile, "samples", &samples))
    trace_batch_add_arg_int (out, ev, "sample_count", samples.len);
  g_array_sort (hp->functions, compare_sizes);
  for (guint i = 0; i < MIN (hp->functions->len, hp->env->top_n); i++)
    {
      const FunctionSize *f = &g_array_index (hp->functions, FunctionSize, i);
      g_autofree char *name_key = g_strdup_printf ("functions[%u].name", i);
      g_autofree char *url_key = g_strdup_printf ("functions[%u].url", i);
      g_autofree char *size_key = g_strdup_printf ("functions[%u].self_size", i);
      trace_batch_add_arg (out, ev, trace_string_pool_intern (hp->env->pool, name_key), TRACE_ARG_STRING)->v.s = f->name;
      if (f->url)
        trace_batch_add_arg (out, ev, trace_string_pool_intern (hp->env->pool, url_key), TRACE_ARG_STRING)->v.s = f->url;
      trace_batch_add_arg_int (out, ev, size_key, (gint64) f->self_size);
    }
}

/**
 * arkts_heap_profile_convert:
 * @env: the reader's environment
 * @profile: an object with a `head` whose nodes have `selfSize`
 * @skel: (nullable): the scanner @profile's document came through
 * @ts: where the events go on the timeline
 * @out: the batch to append to
 *
 * Returns: FALSE (counted as a bad profile) when there is no `head`
 */
gboolean
arkts_heap_profile_convert (ArktsEnv *env,
                            JsonObject *profile,
                            ArktsJsonSkel *skel,
                            gint64 ts,
                            TraceBatch *out)
{
  JsonNode *head = json_object_get_member (profile, "head");
  HeapProfile hp = { env, out, ts, 0, 0, NULL, NULL };

  if (head == NULL || !JSON_NODE_HOLDS_OBJECT (head))
    {
      arkts_env_skip (env, ARKTS_SKIP_BAD_PROFILE, ARKTS_NO_POS, ARKTS_NO_POS, "heap profile without head");
      return FALSE;
    }
  hp.functions = g_array_new (FALSE, FALSE, sizeof (FunctionSize));
  hp.by_function = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  walk_tree (&hp, json_node_get_object (head));
  emit_summary (&hp, profile, skel);
  g_array_unref (hp.functions);
  g_hash_table_unref (hp.by_function);
  env->stats->heap_profiles++;
  return TRUE;
}
