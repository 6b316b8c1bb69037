/* tracepipe - arkts: CPU profiles to stack nodes, samples and slices
 *
 * A profile is small next to a heap snapshot (one node per call site,
 * one int per sample), so it is read with json-glib, turned into compact
 * arrays and the tree is dropped; events are then produced in steps of at
 * most a batch, so a long profile never sits in memory as events.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arkts-engine.h"

typedef struct
{
  guint64 id; /* the id events carry */
  gint64 file_id;
  gint parent; /* index, -1 for none */
  gint depth;  /* -1 unknown, -2 being computed */
  guint32 name;
  guint32 url;
  gint64 line;
  gint64 column;
} ProfNode;

typedef struct
{
  guint32 key;
  double value;
} ExtraField;

typedef enum
{
  PHASE_NODES,
  PHASE_SUMMARY,
  PHASE_SAMPLES,
  PHASE_CLOSE,
  PHASE_DONE,
} Phase;

struct _ArktsCpuProfile
{
  ArktsEnv *env;
  ArktsJsonSkel *skel; /* while loading: where the number arrays are */
  gint64 line;
  gint64 pid, tid;
  GArray *nodes;     /* ProfNode */
  GHashTable *by_id; /* file id → index + 1 */
  GArray *samples;   /* gint node index */
  GArray *ts;        /* gint64 ns, same length */
  GArray *extras;    /* ExtraField: ArkTS per-category times */
  gint64 start_ts, end_ts;
  gboolean reordered;

  Phase phase;
  guint cursor;
  GArray *order; /* node indexes, parents first */
  GArray *open;  /* node indexes of the open slices, outermost first */
  GArray *path;  /* scratch */
  guint32 k_url, k_line, k_column;
};

/* ---- small JSON helpers (shared with the reader) ---- */

static JsonNode *
member_value (JsonObject *obj,
              const char *member)
{
  JsonNode *node = obj ? json_object_get_member (obj, member) : NULL;

  return node && JSON_NODE_HOLDS_VALUE (node) ? node : NULL;
}

/* A double as an integer; FALSE for NaN, infinities and values beyond
 * int64 (`5e856`), whose cast would be undefined. */
gboolean
arkts_double_to_int (double d,
                     gint64 *out)
{
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return FALSE;
  *out = (gint64) d;
  return TRUE;
}

gint64
arkts_json_get_int (JsonObject *obj,
                    const char *member,
                    gint64 fallback)
{
  JsonNode *node = member_value (obj, member);
  GType type = node ? json_node_get_value_type (node) : G_TYPE_INVALID;
  gint64 v;

  if (type == G_TYPE_INT64)
    return json_node_get_int (node);
  if (type == G_TYPE_DOUBLE)
    return arkts_double_to_int (json_node_get_double (node), &v) ? v : fallback;
  if (type == G_TYPE_STRING)
    {
      char *end;
      const char *s = json_node_get_string (node);

      v = g_ascii_strtoll (s, &end, 10);
      return end != s && *end == '\0' ? v : fallback;
    }
  return fallback;
}

double
arkts_json_get_double (JsonObject *obj,
                       const char *member,
                       double fallback)
{
  JsonNode *node = member_value (obj, member);
  GType type = node ? json_node_get_value_type (node) : G_TYPE_INVALID;

  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    return json_node_get_double (node);
  return fallback;
}

const char *
arkts_json_get_string (JsonObject *obj,
                       const char *member)
{
  JsonNode *node = member_value (obj, member);

  return node && json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
}

/* Times an input gives are clamped to ±2^61 ns (73 years; NaN is 0):
 * the reader subtracts and adds two of them (a profile's span, the mean
 * sample interval past the last sample), which must then fit in 64 bits
 * whatever the input says (a startTime of 1e300 converted unclamped is
 * undefined behaviour, and llround's answer for it is INT64_MIN). */
#define ARKTS_MAX_TS (G_GINT64_CONSTANT (1) << 61)

gint64
arkts_us_to_ns (double us)
{
  double ns = us * 1000.0;

  if (isnan (ns))
    return 0;
  if (ns >= (double) ARKTS_MAX_TS)
    return ARKTS_MAX_TS;
  if (ns <= -(double) ARKTS_MAX_TS)
    return -ARKTS_MAX_TS;
  return (gint64) llround (ns);
}

static JsonArray *
get_array (JsonObject *obj,
           const char *member)
{
  JsonNode *node = obj ? json_object_get_member (obj, member) : NULL;

  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static JsonObject *
get_object (JsonObject *obj,
            const char *member)
{
  JsonNode *node = obj ? json_object_get_member (obj, member) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* Element @i of @array as an integer; *ok FALSE (and 0) when it is not a
 * number, without json-glib's warnings on other node types. */
gint64
arkts_json_array_get_int (JsonArray *array,
                          guint i,
                          gboolean *ok)
{
  JsonNode *node = json_array_get_element (array, i);
  GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  gint64 v = 0;

  if (type == G_TYPE_INT64)
    v = json_node_get_int (node);
  *ok = type == G_TYPE_INT64 || (type == G_TYPE_DOUBLE && arkts_double_to_int (json_node_get_double (node), &v));
  return *ok ? v : 0;
}

/* ---- nodes ---- */

static void
skip_node (ArktsCpuProfile *cp,
           const char *format,
           gint64 value)
{
  arkts_env_skip (cp->env, ARKTS_SKIP_BAD_PROFILE_NODE, cp->line, ARKTS_NO_POS, format, value);
}

/* A call frame: the modern `callFrame` object, or the old format's node
 * itself. Line and column stay 0-based as in the file, -1 for none. */
static gint
add_node (ArktsCpuProfile *cp,
          JsonObject *node,
          gint64 file_id,
          gint parent)
{
  JsonObject *frame = get_object (node, "callFrame");
  const char *name, *url;
  ProfNode n = { 0 };

  if (frame == NULL)
    frame = node;
  if (g_hash_table_contains (cp->by_id, GSIZE_TO_POINTER ((gsize) file_id + 1)))
    {
      skip_node (cp, "node id %" G_GINT64_FORMAT " appears twice", file_id);
      return -1;
    }
  name = arkts_json_get_string (frame, "functionName");
  url = arkts_json_get_string (frame, "url");
  n.file_id = file_id;
  n.parent = parent;
  n.depth = -1;
  n.name = trace_string_pool_intern (cp->env->pool, name && *name ? name : "(anonymous)");
  n.url = url && *url ? trace_string_pool_intern (cp->env->pool, url) : 0;
  n.line = arkts_json_get_int (frame, "lineNumber", -1);
  n.column = arkts_json_get_int (frame, "columnNumber", -1);
  g_array_append_val (cp->nodes, n);
  g_hash_table_insert (cp->by_id, GSIZE_TO_POINTER ((gsize) file_id + 1), GSIZE_TO_POINTER (cp->nodes->len));
  return (gint) cp->nodes->len - 1;
}

static gint
index_of (ArktsCpuProfile *cp,
          gint64 file_id)
{
  return (gint) GPOINTER_TO_SIZE (g_hash_table_lookup (cp->by_id, GSIZE_TO_POINTER ((gsize) file_id + 1))) - 1;
}

static void
link_parent (ArktsCpuProfile *cp,
             gint child,
             gint parent)
{
  ProfNode *n = &g_array_index (cp->nodes, ProfNode, child);

  if (n->parent >= 0 && n->parent != parent)
    skip_node (cp, "node %" G_GINT64_FORMAT " has two parents; the second is ignored", n->file_id);
  else
    n->parent = parent;
}

/* Modern form: parents come from `children` (or `parent` in trace-embedded
 * ProfileChunk nodes), resolved once every id is known. */
static void
load_modern_nodes (ArktsCpuProfile *cp,
                   JsonArray *nodes)
{
  guint n = json_array_get_length (nodes);
  gboolean ok;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (nodes, i);
      JsonObject *node = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      if (node == NULL || member_value (node, "id") == NULL)
        skip_node (cp, "nodes[%" G_GINT64_FORMAT "] has no id", (gint64) i);
      else
        add_node (cp, node, arkts_json_get_int (node, "id", 0), -1);
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (nodes, i);
      JsonObject *node = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      gint self = node && member_value (node, "id") ? index_of (cp, arkts_json_get_int (node, "id", 0)) : -1;
      ArktsNumbers children;
      gboolean have_children = arkts_numbers_lookup (cp->skel, node, "children", &children);
      if (self < 0)
        continue;
      for (guint c = 0; have_children && c < children.len; c++)
        {
          gint64 child_id = arkts_numbers_get (&children, c, &ok);
          gint child = ok ? index_of (cp, child_id) : -1;
          if (child < 0)
            skip_node (cp, "child %" G_GINT64_FORMAT " is not a node", child_id);
          else
            link_parent (cp, child, self);
        }
      if (member_value (node, "parent"))
        {
          gint parent = index_of (cp, arkts_json_get_int (node, "parent", 0));
          if (parent < 0)
            skip_node (cp, "parent of node %" G_GINT64_FORMAT " is not a node", arkts_json_get_int (node, "id", 0));
          else
            link_parent (cp, self, parent);
        }
    }
}

/* Old form: a nested `head` tree, walked with an explicit stack. Nodes
 * without an id get one past the largest seen. */
static void
load_head_tree (ArktsCpuProfile *cp,
                JsonObject *head)
{
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  g_autoptr (GArray) parents = g_array_new (FALSE, FALSE, sizeof (gint));
  gint64 next_id = 1;
  gint none = -1;

  g_ptr_array_add (stack, head);
  g_array_append_val (parents, none);
  while (stack->len > 0)
    {
      JsonObject *node = g_ptr_array_steal_index (stack, stack->len - 1);
      gint parent = g_array_index (parents, gint, parents->len - 1);
      JsonArray *children = get_array (node, "children");
      gint64 id = member_value (node, "id") ? arkts_json_get_int (node, "id", 0) : next_id;
      gint self;

      g_array_set_size (parents, parents->len - 1);
      next_id = MAX (next_id, id + 1);
      self = add_node (cp, node, id, parent);
      if (self < 0)
        continue;
      for (guint c = children ? json_array_get_length (children) : 0; c > 0; c--)
        {
          JsonNode *element = json_array_get_element (children, c - 1);
          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;
          g_ptr_array_add (stack, json_node_get_object (element));
          g_array_append_val (parents, self);
        }
    }
}

/* Depth of every node, walking parent links without recursion; a cycle
 * is cut where it is found. */
static void
compute_depths (ArktsCpuProfile *cp)
{
  g_autoptr (GArray) chain = g_array_new (FALSE, FALSE, sizeof (gint));
  ProfNode *nodes = (ProfNode *) cp->nodes->data;

  for (guint i = 0; i < cp->nodes->len; i++)
    {
      gint at = (gint) i;
      gint depth;
      g_array_set_size (chain, 0);
      while (at >= 0 && nodes[at].depth == -1)
        {
          nodes[at].depth = -2;
          g_array_append_val (chain, at);
          at = nodes[at].parent;
        }
      if (at >= 0 && nodes[at].depth == -2)
        {
          gint last = g_array_index (chain, gint, chain->len - 1);
          skip_node (cp, "node %" G_GINT64_FORMAT " is its own ancestor; its parent link is cut", nodes[last].file_id);
          nodes[last].parent = -1;
          at = -1;
        }
      depth = at >= 0 ? nodes[at].depth : -1;
      for (guint c = chain->len; c > 0; c--)
        nodes[g_array_index (chain, gint, c - 1)].depth = ++depth;
    }
}

/* Ids unique across the profiles of a stream: the first profile keeps the
 * file's ids when they start at 1. */
static void
assign_ids (ArktsCpuProfile *cp)
{
  gint64 min_id = G_MAXINT64, max_id = G_MININT64;
  guint64 base = cp->env->next_stack_node_id;
  ProfNode *nodes = (ProfNode *) cp->nodes->data;

  for (guint i = 0; i < cp->nodes->len; i++)
    {
      min_id = MIN (min_id, nodes[i].file_id);
      max_id = MAX (max_id, nodes[i].file_id);
    }
  for (guint i = 0; i < cp->nodes->len; i++)
    nodes[i].id = base + (guint64) (nodes[i].file_id - min_id) + 1;
  if (cp->nodes->len > 0)
    cp->env->next_stack_node_id = base + (guint64) (max_id - min_id) + 1;
}

static int
compare_depth (gconstpointer a,
               gconstpointer b,
               gpointer user_data)
{
  const ProfNode *nodes = user_data;
  gint x = *(const gint *) a, y = *(const gint *) b;

  if (nodes[x].depth != nodes[y].depth)
    return nodes[x].depth < nodes[y].depth ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* ---- samples and their times ---- */

static void
skip_sample (ArktsCpuProfile *cp,
             const char *format,
             gint64 value)
{
  arkts_env_skip (cp->env, ARKTS_SKIP_BAD_SAMPLE, cp->line, ARKTS_NO_POS, format, value);
}

/* Sample i's time, from whichever the profile carries:
 * - timeDeltas: startTime + Σ timeDeltas[0..i] (DevTools; TraceStreamer
 *   drops timeDeltas[0], see docs/arkts.md);
 * - timestamps (old form), absolute µs; one more than the samples means
 *   the first is the profile start;
 * - neither: spread evenly over startTime..endTime (or the interval). */
static gboolean
sample_time (ArktsCpuProfile *cp,
             const ArktsNumbers *deltas,
             const ArktsNumbers *stamps,
             guint n_samples,
             guint i,
             double *us)
{
  gboolean ok = TRUE;
  guint n_stamps = stamps ? stamps->len : 0;

  if (deltas)
    {
      if (i >= deltas->len)
        return FALSE;
      *us += (double) arkts_numbers_get (deltas, i, &ok);
      return ok;
    }
  if (stamps)
    {
      guint at = n_stamps == n_samples + 1 ? i + 1 : i;
      if (at >= n_stamps)
        return FALSE;
      *us = (double) arkts_numbers_get (stamps, at, &ok);
      return ok;
    }
  return TRUE; /* spread later */
}

static void
spread_evenly (ArktsCpuProfile *cp)
{
  guint n = cp->ts->len;
  gint64 span = trace_time_add_saturated (cp->end_ts, -cp->start_ts); /* start_ts is clamped */

  for (guint i = 0; i < n; i++)
    {
      gint64 *ts = &g_array_index (cp->ts, gint64, i);
      if (span > 0)
        *ts = cp->start_ts + (gint64) ((double) span * i / n);
      else
        {
          gint64 offset;

          if (__builtin_mul_overflow ((gint64) i, cp->env->cpu_profiler_interval, &offset))
            offset = G_MAXINT64;
          *ts = trace_time_add_saturated (cp->start_ts, offset);
        }
    }
}

static void
load_samples (ArktsCpuProfile *cp,
              JsonObject *profile)
{
  ArktsNumbers samples_n, deltas_n, stamps_n;
  gboolean have_samples = arkts_numbers_lookup (cp->skel, profile, "samples", &samples_n);
  const ArktsNumbers *deltas = arkts_numbers_lookup (cp->skel, profile, "timeDeltas", &deltas_n) ? &deltas_n : NULL;
  const ArktsNumbers *stamps = NULL;
  guint n = have_samples ? samples_n.len : 0;
  double us = (double) cp->start_ts / 1000.0;
  gboolean ok;

  if (deltas == NULL && arkts_numbers_lookup (cp->skel, profile, "timestamps", &stamps_n))
    stamps = &stamps_n;
  for (guint i = 0; i < n; i++)
    {
      gint64 id = arkts_numbers_get (&samples_n, i, &ok);
      gint node = ok ? index_of (cp, id) : -1;
      gint64 ts;
      /* the delta counts even when its sample is unusable */
      if (!sample_time (cp, deltas, stamps, n, i, &us))
        {
          skip_sample (cp, "sample %" G_GINT64_FORMAT " has no time", (gint64) i);
          continue;
        }
      if (node < 0)
        {
          skip_sample (cp, "sample names node %" G_GINT64_FORMAT ", which is not in the profile", id);
          continue;
        }
      ts = arkts_us_to_ns (us);
      g_array_append_val (cp->samples, node);
      g_array_append_val (cp->ts, ts);
    }
  if (stamps && n > 0 && stamps->len == n + 1)
    cp->start_ts = arkts_us_to_ns ((double) arkts_numbers_get (stamps, 0, &ok));
  if (deltas == NULL && stamps == NULL)
    spread_evenly (cp);
}

typedef struct
{
  gint64 ts;
  guint index;
} TimedSample;

static int
compare_timed (const void *a,
               const void *b)
{
  const TimedSample *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Negative deltas put samples out of order: sort them by time, keeping
 * file order among equal times, as DevTools does. */
static void
sort_samples (ArktsCpuProfile *cp)
{
  guint n = cp->ts->len;
  TimedSample *timed;
  g_autoptr (GArray) nodes = NULL;
  gboolean sorted = TRUE;

  for (guint i = 1; i < n && sorted; i++)
    sorted = g_array_index (cp->ts, gint64, i - 1) <= g_array_index (cp->ts, gint64, i);
  if (sorted)
    return;
  cp->reordered = TRUE;
  cp->env->stats->samples_reordered++;
  timed = g_new (TimedSample, n);
  for (guint i = 0; i < n; i++)
    timed[i] = (TimedSample){ g_array_index (cp->ts, gint64, i), i };
  qsort (timed, n, sizeof *timed, compare_timed);
  nodes = g_array_copy (cp->samples);
  for (guint i = 0; i < n; i++)
    {
      g_array_index (cp->ts, gint64, i) = timed[i].ts;
      g_array_index (cp->samples, gint, i) = g_array_index (nodes, gint, timed[i].index);
    }
  g_free (timed);
}

/* The end of the last sample: one mean sample interval after it, as in
 * DevTools, but not past the profile's endTime (when endTime is not before
 * it). A profile whose endTime lies far after its last sample (ArkTS test
 * data: 20 s after 3 ms of samples) then does not get a 20 s last slice. */
static void
choose_end (ArktsCpuProfile *cp,
            gint64 end_ts,
            gboolean have_end)
{
  guint n = cp->ts->len;
  gint64 first = n > 0 ? g_array_index (cp->ts, gint64, 0) : cp->start_ts;
  gint64 last = n > 0 ? g_array_index (cp->ts, gint64, n - 1) : cp->start_ts;
  gint64 mean = n >= 2 ? (last - first) / (n - 1) : MAX (cp->env->cpu_profiler_interval, 0);

  cp->end_ts = trace_time_add_saturated (last, mean);
  if (have_end && end_ts >= last && (end_ts < cp->end_ts || mean == 0))
    cp->end_ts = end_ts;
}

static void
load_extras (ArktsCpuProfile *cp,
             JsonObject *profile)
{
  g_autoptr (GList) members = json_object_get_members (profile);

  for (GList *l = members; l; l = l->next)
    {
      const char *key = l->data;
      JsonNode *node = member_value (profile, key);
      ExtraField f;
      /* ArkTS adds gcTime, cInterpreterTime, …: µs per category */
      if (node == NULL || !g_str_has_suffix (key, "Time") || strcmp (key, "startTime") == 0 || strcmp (key, "endTime") == 0)
        continue;
      if (json_node_get_value_type (node) != G_TYPE_INT64 && json_node_get_value_type (node) != G_TYPE_DOUBLE)
        continue;
      f.key = trace_string_pool_intern (cp->env->pool, key);
      f.value = json_node_get_double (node);
      g_array_append_val (cp->extras, f);
    }
}

void
arkts_cpu_profile_free (ArktsCpuProfile *cp)
{
  if (cp == NULL)
    return;
  g_array_unref (cp->nodes);
  g_hash_table_unref (cp->by_id);
  g_array_unref (cp->samples);
  g_array_unref (cp->ts);
  g_array_unref (cp->extras);
  g_array_unref (cp->order);
  g_array_unref (cp->open);
  g_array_unref (cp->path);
  g_free (cp);
}

static ArktsCpuProfile *
cpu_profile_new (ArktsEnv *env,
                 gint64 line)
{
  ArktsCpuProfile *cp = g_new0 (ArktsCpuProfile, 1);

  cp->env = env;
  cp->line = line;
  cp->nodes = g_array_new (FALSE, FALSE, sizeof (ProfNode));
  cp->by_id = g_hash_table_new (NULL, NULL);
  cp->samples = g_array_new (FALSE, FALSE, sizeof (gint));
  cp->ts = g_array_new (FALSE, FALSE, sizeof (gint64));
  cp->extras = g_array_new (FALSE, FALSE, sizeof (ExtraField));
  cp->order = g_array_new (FALSE, FALSE, sizeof (gint));
  cp->open = g_array_new (FALSE, FALSE, sizeof (gint));
  cp->path = g_array_new (FALSE, FALSE, sizeof (gint));
  cp->k_url = trace_string_pool_intern (env->pool, "url");
  cp->k_line = trace_string_pool_intern (env->pool, "line");
  cp->k_column = trace_string_pool_intern (env->pool, "column");
  return cp;
}

/* startTime/endTime: µs in the modern form, seconds in the old one. */
static void
load_times (ArktsCpuProfile *cp,
            JsonObject *profile,
            gboolean old_form,
            gint64 *end_ts,
            gboolean *have_end)
{
  double scale = old_form ? 1e6 : 1.0;

  cp->start_ts = arkts_us_to_ns (arkts_json_get_double (profile, "startTime", 0.0) * scale);
  *have_end = member_value (profile, "endTime") != NULL;
  *end_ts = arkts_us_to_ns (arkts_json_get_double (profile, "endTime", 0.0) * scale);
  cp->end_ts = *end_ts;
}

/**
 * arkts_cpu_profile_load:
 * @env: the reader's environment
 * @profile: a `Profiler.Profile` object (modern or old `head` form)
 * @skel: (nullable): the scanner @profile's document came through, which
 *   holds its number arrays
 * @line: its line in a message stream, or %ARKTS_NO_POS
 *
 * Returns: (transfer full) (nullable): the profile ready to emit, %NULL
 *   (counted as a bad profile) when it has no nodes
 */
ArktsCpuProfile *
arkts_cpu_profile_load (ArktsEnv *env,
                        JsonObject *profile,
                        ArktsJsonSkel *skel,
                        gint64 line)
{
  ArktsCpuProfile *cp = cpu_profile_new (env, line);
  JsonArray *nodes = get_array (profile, "nodes");
  JsonObject *head = get_object (profile, "head");
  gint64 end_ts;
  gboolean have_end;

  cp->skel = skel;
  if (nodes)
    load_modern_nodes (cp, nodes);
  else if (head)
    load_head_tree (cp, head);
  if (cp->nodes->len == 0)
    {
      arkts_env_skip (env, ARKTS_SKIP_BAD_PROFILE, line, ARKTS_NO_POS, "CPU profile without nodes");
      arkts_cpu_profile_free (cp);
      return NULL;
    }
  compute_depths (cp);
  assign_ids (cp);
  load_times (cp, profile, nodes == NULL, &end_ts, &have_end);
  cp->pid = env->pid;
  cp->tid = env->tid != TRACE_ID_UNKNOWN ? env->tid : arkts_json_get_int (profile, "tid", env->pid);
  load_samples (cp, profile);
  sort_samples (cp);
  choose_end (cp, end_ts, have_end);
  load_extras (cp, profile);
  cp->skel = NULL;
  for (guint i = 0; i < cp->nodes->len; i++)
    g_array_append_val (cp->order, i);
  g_array_sort_with_data (cp->order, compare_depth, cp->nodes->data);
  env->stats->cpu_profiles++;
  return cp;
}

/* ---- events ---- */

static void
add_frame_args (ArktsCpuProfile *cp,
                TraceBatch *out,
                TraceEvent *ev,
                const ProfNode *n)
{
  if (n->url != 0)
    trace_batch_add_arg (out, ev, cp->k_url, TRACE_ARG_STRING)->v.s = n->url;
  if (n->line >= 0)
    trace_batch_add_arg (out, ev, cp->k_line, TRACE_ARG_INT)->v.i = n->line;
  if (n->column >= 0)
    trace_batch_add_arg (out, ev, cp->k_column, TRACE_ARG_INT)->v.i = n->column;
}

static void
emit_node (ArktsCpuProfile *cp,
           TraceBatch *out,
           gint index)
{
  const ProfNode *n = &g_array_index (cp->nodes, ProfNode, index);
  TraceEvent *ev = arkts_append (out, TRACE_EVENT_STACK_NODE, cp->start_ts, cp->pid, cp->tid, n->name);

  ev->u.stack_node.id = n->id;
  ev->u.stack_node.parent_id = n->parent >= 0 ? g_array_index (cp->nodes, ProfNode, n->parent).id : 0;
  add_frame_args (cp, out, ev, n);
}

static void
emit_summary (ArktsCpuProfile *cp,
              TraceBatch *out)
{
  TraceEvent *ev = arkts_append (out, TRACE_EVENT_INSTANT, cp->start_ts, cp->pid, cp->tid,
                                 trace_string_pool_intern (cp->env->pool, "JS CPU profile"));

  trace_batch_add_arg_int (out, ev, "sample_count", cp->samples->len);
  trace_batch_add_arg_int (out, ev, "node_count", cp->nodes->len);
  trace_batch_add_arg_int (out, ev, "duration_ns", trace_time_add_saturated (cp->end_ts, -cp->start_ts));
  if (cp->reordered)
    trace_batch_add_arg_bool (out, ev, "samples_reordered", TRUE);
  for (guint i = 0; i < cp->extras->len; i++)
    {
      const ExtraField *f = &g_array_index (cp->extras, ExtraField, i);
      gint64 whole;

      /* a whole number in int64's range is an int; anything else (a
       * fraction, 1e300, inf from an exponent too large) stays a double */
      if (f->value == floor (f->value) && arkts_double_to_int (f->value, &whole))
        trace_batch_add_arg (out, ev, f->key, TRACE_ARG_INT)->v.i = whole;
      else
        trace_batch_add_arg (out, ev, f->key, TRACE_ARG_DOUBLE)->v.d = f->value;
    }
}

/* The stack of a sample, outermost first, without the synthetic root
 * (a slice spanning the whole profile says nothing). */
static void
build_path (ArktsCpuProfile *cp,
            gint leaf,
            guint32 root_name)
{
  const ProfNode *nodes = (const ProfNode *) cp->nodes->data;
  guint len;

  g_array_set_size (cp->path, 0);
  for (gint at = leaf; at >= 0; at = nodes[at].parent)
    if (!(nodes[at].parent < 0 && nodes[at].name == root_name))
      g_array_append_val (cp->path, at);
  len = cp->path->len;
  for (guint i = 0; i < len / 2; i++)
    {
      gint tmp = g_array_index (cp->path, gint, i);
      g_array_index (cp->path, gint, i) = g_array_index (cp->path, gint, len - 1 - i);
      g_array_index (cp->path, gint, len - 1 - i) = tmp;
    }
}

static void
close_slices (ArktsCpuProfile *cp,
              TraceBatch *out,
              guint keep,
              gint64 ts)
{
  while (cp->open->len > keep)
    {
      gint index = g_array_index (cp->open, gint, cp->open->len - 1);
      arkts_append (out, TRACE_EVENT_SLICE_END, ts, cp->pid, cp->tid,
                    g_array_index (cp->nodes, ProfNode, index).name);
      g_array_set_size (cp->open, cp->open->len - 1);
    }
}

/* Where the stack changes, slices of the old stack below the common part
 * end and those of the new one begin; an unchanged stack merges. */
static void
emit_sample (ArktsCpuProfile *cp,
             TraceBatch *out,
             guint i,
             guint32 root_name)
{
  gint leaf = g_array_index (cp->samples, gint, i);
  gint64 ts = g_array_index (cp->ts, gint64, i);
  const ProfNode *n = &g_array_index (cp->nodes, ProfNode, leaf);
  guint common = 0;
  TraceEvent *ev;

  build_path (cp, leaf, root_name);
  while (common < cp->path->len && common < cp->open->len && g_array_index (cp->path, gint, common) == g_array_index (cp->open, gint, common))
    common++;
  close_slices (cp, out, common, ts);
  for (guint d = common; d < cp->path->len; d++)
    {
      gint index = g_array_index (cp->path, gint, d);
      const ProfNode *frame = &g_array_index (cp->nodes, ProfNode, index);
      ev = arkts_append (out, TRACE_EVENT_SLICE_BEGIN, ts, cp->pid, cp->tid, frame->name);
      add_frame_args (cp, out, ev, frame);
      g_array_append_val (cp->open, index);
    }
  ev = arkts_append (out, TRACE_EVENT_SAMPLE, ts, cp->pid, cp->tid, n->name);
  ev->u.sample.node_id = n->id;
  ev->u.sample.weight = 1;
  cp->env->stats->samples++;
}

/**
 * arkts_cpu_profile_emit:
 * @cp: a loaded profile
 * @out: the batch to append to
 * @max_events: stop once @out holds this many events
 *
 * Appends the profile's events: its stack nodes (parents first), a
 * summary instant, then per sample the slice changes and the sample, and
 * at last the ends of the slices still open.
 *
 * Returns: whether every event has been appended
 */
gboolean
arkts_cpu_profile_emit (ArktsCpuProfile *cp,
                        TraceBatch *out,
                        guint max_events)
{
  guint32 root_name = trace_string_pool_intern (cp->env->pool, "(root)");

  while (cp->phase != PHASE_DONE && out->n_events < max_events)
    switch (cp->phase)
      {
      case PHASE_NODES:
        if (cp->cursor < cp->order->len)
          emit_node (cp, out, g_array_index (cp->order, gint, cp->cursor++));
        else
          cp->phase = PHASE_SUMMARY, cp->cursor = 0;
        break;
      case PHASE_SUMMARY:
        emit_summary (cp, out);
        cp->phase = PHASE_SAMPLES;
        break;
      case PHASE_SAMPLES:
        if (cp->cursor < cp->samples->len)
          emit_sample (cp, out, cp->cursor++, root_name);
        else
          cp->phase = PHASE_CLOSE;
        break;
      case PHASE_CLOSE:
        close_slices (cp, out, 0, cp->end_ts);
        cp->phase = PHASE_DONE;
        break;
      case PHASE_DONE:
        break;
      }
  return cp->phase == PHASE_DONE;
}
