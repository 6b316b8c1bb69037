/* tracepipe - arkts: what a heap snapshot / timeline adds up to
 *
 * The document parser (arkts-heap-doc.c) hands every number of the flat
 * arrays here as it scans them; this file folds them into a few small
 * tables (per node type, per constructor, per allocating function) and
 * never keeps the arrays themselves, so memory stays that of the tables.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "arkts-engine.h"

/* Bounds that stop garbage from growing tables without limit. */
#define MAX_FIELDS 32
#define MAX_FUNCTION_INDEX (16 * 1024 * 1024)

typedef struct
{
  guint64 count;
  guint64 self_size;
} SizeStat;

typedef struct
{
  SizeStat stat;
  gint64 name;  /* string index, or -1 for a class named after its type */
  guint32 type; /* the type for name == -1 */
} ClassStat;

typedef struct
{
  SizeStat alloc;
  SizeStat live;
} FunctionStat;

typedef struct
{
  /* node_fields */
  guint node_stride;
  int n_type, n_name, n_id, n_self_size, n_edge_count, n_trace_node_id, n_detachedness;
  GPtrArray *type_names;
  gboolean *type_by_name; /* objects and natives are grouped by name */
  /* edge_fields */
  guint edge_stride;
  int e_type, e_to_node;
  guint n_edge_types;
  /* trace_function_info_fields, trace_node_fields, sample_fields */
  guint tfi_stride;
  int f_name, f_script_name, f_line, f_column;
  guint tn_stride;
  int t_id, t_fi, t_count, t_size, t_children;
  guint sample_stride;
  int s_ts, s_last_id;
  gint64 declared_nodes, declared_edges;
} Meta;

struct _ArktsHeapSummary
{
  ArktsEnv *env;
  guint index;
  gint64 start_ts;
  const gint64 *line_src, *offset_src;
  gboolean have_meta;
  Meta meta;

  /* Values of arrays that came before the meta (unusual key order). */
  GArray *early[ARKTS_N_SECTIONS];

  gint64 row[MAX_FIELDS];
  guint field, stride; /* position in the row of the open section */
  guint64 nodes, edges, edge_count_sum, self_size;
  SizeStat *types; /* n_types + 1: the last for unknown types */
  SizeStat detached;
  GArray *classes; /* ClassStat, grouped by name */
  GHashTable *class_by_name;
  GHashTable *live_by_trace_node; /* trace node id → index+1 in live */
  GArray *live;                   /* SizeStat */

  GArray *tfi;       /* gint64 rows of trace_function_infos */
  GArray *functions; /* FunctionStat by function index */
  guint64 trace_nodes;
  guint64 samples;
  gint64 last_sample_us;
  guint64 locations;

  gboolean strings_begun, keep_all_strings;
  guint64 n_strings;
  GHashTable *wanted; /* string index → char* (NULL until seen) */
  GPtrArray *all_strings;
  GArray *top_classes;   /* ClassStat */
  GArray *top_functions; /* guint function indexes */
};

static const char *section_names[ARKTS_N_SECTIONS] = {
  "",
  "snapshot",
  "nodes",
  "edges",
  "trace_function_infos",
  "trace_tree",
  "samples",
  "locations",
  "strings",
  "other",
};

const char *
arkts_section_name (ArktsSection section)
{
  return section_names[section];
}

ArktsHeapSummary *
arkts_heap_summary_new (ArktsEnv *env,
                        guint index,
                        gint64 start_ts)
{
  ArktsHeapSummary *s;

  g_return_val_if_fail (env != NULL, NULL);

  s = g_new0 (ArktsHeapSummary, 1);
  s->env = env;
  s->index = index;
  s->start_ts = start_ts;
  s->classes = g_array_new (FALSE, FALSE, sizeof (ClassStat));
  s->class_by_name = g_hash_table_new (NULL, NULL);
  s->live_by_trace_node = g_hash_table_new (NULL, NULL);
  s->live = g_array_new (FALSE, TRUE, sizeof (SizeStat));
  s->tfi = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->functions = g_array_new (FALSE, TRUE, sizeof (FunctionStat));
  s->wanted = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  s->top_classes = g_array_new (FALSE, FALSE, sizeof (ClassStat));
  s->top_functions = g_array_new (FALSE, FALSE, sizeof (guint));
  return s;
}

void
arkts_heap_summary_free (ArktsHeapSummary *s)
{
  if (s == NULL)
    return;
  for (guint i = 0; i < ARKTS_N_SECTIONS; i++)
    if (s->early[i])
      g_array_unref (s->early[i]);
  if (s->meta.type_names)
    g_ptr_array_unref (s->meta.type_names);
  g_free (s->meta.type_by_name);
  g_free (s->types);
  g_array_unref (s->classes);
  g_hash_table_unref (s->class_by_name);
  g_hash_table_unref (s->live_by_trace_node);
  g_array_unref (s->live);
  g_array_unref (s->tfi);
  g_array_unref (s->functions);
  g_hash_table_unref (s->wanted);
  if (s->all_strings)
    g_ptr_array_unref (s->all_strings);
  g_array_unref (s->top_classes);
  g_array_unref (s->top_functions);
  g_free (s);
}

/* Skips name the document's position: the parser owns the two values and
 * keeps them current, so passing numbers costs no call. */
void
arkts_heap_summary_set_position_source (ArktsHeapSummary *s,
                                        const gint64 *line,
                                        const gint64 *offset)
{
  s->line_src = line;
  s->offset_src = offset;
}

/* ---- meta ---- */

/* Index of @name in the string array @fields, -1 if absent. */
static int
field_index (JsonArray *fields,
             const char *name)
{
  guint n = fields ? json_array_get_length (fields) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (fields, i);
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING && g_strcmp0 (json_node_get_string (node), name) == 0)
        return (int) i;
    }
  return -1;
}

static JsonArray *
member_array (JsonObject *obj,
              const char *name)
{
  JsonNode *node = obj ? json_object_get_member (obj, name) : NULL;

  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* The first element of a "*_types" array names the values of the "type"
 * field; the first element of node_types is that list. */
static GPtrArray *
type_names (JsonArray *types)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  JsonNode *first = types && json_array_get_length (types) > 0 ? json_array_get_element (types, 0) : NULL;
  JsonArray *list = first && JSON_NODE_HOLDS_ARRAY (first) ? json_node_get_array (first) : NULL;
  guint n = list ? json_array_get_length (list) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      const char *str = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
      g_ptr_array_add (names, str ? g_strdup (str) : g_strdup_printf ("type %u", i));
    }
  return names;
}

/* Stride of a *_fields array, or @fallback when the meta lacks it. */
static guint
stride_of (JsonArray *fields,
           guint fallback)
{
  return fields && json_array_get_length (fields) > 0 ? json_array_get_length (fields) : fallback;
}

static gboolean
meta_node_fields (Meta *m,
                  JsonObject *meta,
                  GError **error)
{
  JsonArray *nf = member_array (meta, "node_fields");

  if (nf == NULL || json_array_get_length (nf) == 0 || json_array_get_length (nf) > MAX_FIELDS)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                   "snapshot.meta.node_fields is missing or has more than %d fields", MAX_FIELDS);
      return FALSE;
    }
  m->node_stride = json_array_get_length (nf);
  m->n_type = field_index (nf, "type");
  m->n_name = field_index (nf, "name");
  m->n_id = field_index (nf, "id");
  m->n_self_size = field_index (nf, "self_size");
  m->n_edge_count = field_index (nf, "edge_count");
  m->n_trace_node_id = field_index (nf, "trace_node_id");
  m->n_detachedness = field_index (nf, "detachedness");
  if (m->n_type < 0 || m->n_self_size < 0)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                   "snapshot.meta.node_fields lacks \"type\" or \"self_size\"");
      return FALSE;
    }
  m->type_names = type_names (member_array (meta, "node_types"));
  m->type_by_name = g_new0 (gboolean, m->type_names->len + 1);
  for (guint i = 0; i < m->type_names->len; i++)
    {
      const char *name = g_ptr_array_index (m->type_names, i);
      /* DevTools' className(): objects and natives by name, others by type */
      m->type_by_name[i] = m->n_name >= 0 && (strcmp (name, "object") == 0 || strcmp (name, "native") == 0);
    }
  return TRUE;
}

static void
meta_other_fields (Meta *m,
                   JsonObject *meta)
{
  JsonArray *ef = member_array (meta, "edge_fields");
  JsonArray *ff = member_array (meta, "trace_function_info_fields");
  JsonArray *tf = member_array (meta, "trace_node_fields");
  JsonArray *sf = member_array (meta, "sample_fields");
  g_autoptr (GPtrArray) edge_types = type_names (member_array (meta, "edge_types"));

  /* Defaults are V8's layout, for metas that omit a list. */
  m->edge_stride = MIN (stride_of (ef, 3), MAX_FIELDS);
  m->e_type = ef ? field_index (ef, "type") : 0;
  m->e_to_node = ef ? field_index (ef, "to_node") : 2;
  m->n_edge_types = edge_types->len;
  m->tfi_stride = MIN (stride_of (ff, 6), MAX_FIELDS);
  m->f_name = ff ? field_index (ff, "name") : 1;
  m->f_script_name = ff ? field_index (ff, "script_name") : 2;
  m->f_line = ff ? field_index (ff, "line") : 4;
  m->f_column = ff ? field_index (ff, "column") : 5;
  m->tn_stride = MIN (stride_of (tf, 5), MAX_FIELDS);
  m->t_id = tf ? field_index (tf, "id") : 0;
  m->t_fi = tf ? field_index (tf, "function_info_index") : 1;
  m->t_count = tf ? field_index (tf, "count") : 2;
  m->t_size = tf ? field_index (tf, "size") : 3;
  m->t_children = tf ? field_index (tf, "children") : 4;
  m->sample_stride = MIN (stride_of (sf, 2), MAX_FIELDS);
  m->s_ts = sf ? field_index (sf, "timestamp_us") : 0;
  m->s_last_id = sf ? field_index (sf, "last_assigned_id") : 1;
}

static void replay_early (ArktsHeapSummary *s);
static void choose_top (ArktsHeapSummary *s);

gboolean
arkts_heap_summary_set_meta (ArktsHeapSummary *s,
                             const char *json,
                             gsize len,
                             GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *snapshot, *meta;
  g_autoptr (GError) local = NULL;

  /* the nodes read so far were laid out by the first one */
  if (s->have_meta)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "a second \"snapshot\" object");
      return FALSE;
    }
  if (!json_parser_load_from_data (parser, json, len, &local))
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                   "\"snapshot\" is not valid JSON: %s", local->message);
      return FALSE;
    }
  snapshot = JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ? json_node_get_object (json_parser_get_root (parser)) : NULL;
  meta = snapshot && json_object_has_member (snapshot, "meta") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (snapshot, "meta"))
             ? json_object_get_object_member (snapshot, "meta")
             : NULL;
  if (meta == NULL)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "snapshot.meta is missing");
      return FALSE;
    }
  if (!meta_node_fields (&s->meta, meta, error))
    return FALSE;
  meta_other_fields (&s->meta, meta);
  s->meta.declared_nodes = arkts_json_get_int (snapshot, "node_count", -1);
  s->meta.declared_edges = arkts_json_get_int (snapshot, "edge_count", -1);
  s->types = g_new0 (SizeStat, s->meta.type_names->len + 1);
  s->have_meta = TRUE;
  replay_early (s);
  return TRUE;
}

/* ---- nodes and edges ---- */

static ClassStat *
class_for_name (ArktsHeapSummary *s,
                gint64 name)
{
  gpointer key = GSIZE_TO_POINTER ((gsize) name + 1);
  gsize pos = GPOINTER_TO_SIZE (g_hash_table_lookup (s->class_by_name, key));

  if (pos == 0)
    {
      ClassStat c = { { 0, 0 }, name, 0 };
      g_array_append_val (s->classes, c);
      pos = s->classes->len;
      g_hash_table_insert (s->class_by_name, key, GSIZE_TO_POINTER (pos));
    }
  return &g_array_index (s->classes, ClassStat, pos - 1);
}

static void
add_live (ArktsHeapSummary *s,
          gint64 trace_node_id,
          gint64 self_size)
{
  gpointer key;
  gsize pos;
  SizeStat *live;

  if (trace_node_id <= 0 || trace_node_id >= G_MAXUINT32)
    return;
  key = GSIZE_TO_POINTER ((gsize) trace_node_id);
  pos = GPOINTER_TO_SIZE (g_hash_table_lookup (s->live_by_trace_node, key));
  if (pos == 0)
    {
      g_array_set_size (s->live, s->live->len + 1);
      pos = s->live->len;
      g_hash_table_insert (s->live_by_trace_node, key, GSIZE_TO_POINTER (pos));
    }
  live = &g_array_index (s->live, SizeStat, pos - 1);
  live->count++;
  live->self_size += self_size;
}

static void
node_row (ArktsHeapSummary *s)
{
  const Meta *m = &s->meta;
  const gint64 *row = s->row;
  gint64 type = row[m->n_type];
  gint64 self_size = row[m->n_self_size];
  guint n_types = m->type_names->len;

  s->nodes++;
  s->self_size += self_size;
  if (m->n_edge_count >= 0)
    s->edge_count_sum += row[m->n_edge_count];
  if (type < 0 || type >= n_types)
    {
      arkts_env_skip (s->env, ARKTS_SKIP_BAD_NODE, *s->line_src, *s->offset_src,
                      "node %" G_GUINT64_FORMAT ": type %" G_GINT64_FORMAT " is not in node_types (%u types)",
                      s->nodes - 1, type, n_types);
      type = n_types;
    }
  s->types[type].count++;
  s->types[type].self_size += self_size;
  if (m->type_by_name[type])
    {
      ClassStat *c = class_for_name (s, row[m->n_name]);
      c->stat.count++;
      c->stat.self_size += self_size;
    }
  if (m->n_detachedness >= 0 && row[m->n_detachedness] == 2)
    {
      s->detached.count++;
      s->detached.self_size += self_size;
    }
  if (m->n_trace_node_id >= 0)
    add_live (s, row[m->n_trace_node_id], self_size);
}

static void
edge_row (ArktsHeapSummary *s)
{
  const Meta *m = &s->meta;
  gint64 to_node = m->e_to_node >= 0 ? s->row[m->e_to_node] : 0;
  gint64 type = m->e_type >= 0 ? s->row[m->e_type] : 0;

  s->edges++;
  /* to_node is an index into the nodes array, so a multiple of the stride;
   * edges follow the nodes, whose number is known by now */
  if (to_node < 0 || to_node % m->node_stride != 0 || (guint64) to_node / m->node_stride >= s->nodes)
    arkts_env_skip (s->env, ARKTS_SKIP_BAD_EDGE, *s->line_src, *s->offset_src,
                    "edge %" G_GUINT64_FORMAT ": to_node %" G_GINT64_FORMAT " is not the index of one of %" G_GUINT64_FORMAT " nodes of %u fields",
                    s->edges - 1, to_node, s->nodes, m->node_stride);
  else if (m->n_edge_types > 0 && (type < 0 || type >= m->n_edge_types))
    arkts_env_skip (s->env, ARKTS_SKIP_BAD_EDGE, *s->line_src, *s->offset_src,
                    "edge %" G_GUINT64_FORMAT ": type %" G_GINT64_FORMAT " is not in edge_types",
                    s->edges - 1, type);
}

/* ---- allocation traces ---- */

static FunctionStat *
function_stat (ArktsHeapSummary *s,
               gint64 index)
{
  if (index < 0 || index >= MAX_FUNCTION_INDEX)
    return NULL;
  if ((guint64) index >= s->functions->len)
    g_array_set_size (s->functions, index + 1);
  return &g_array_index (s->functions, FunctionStat, index);
}

guint
arkts_heap_summary_trace_node_width (ArktsHeapSummary *s,
                                     guint *children_field)
{
  guint stride = s->have_meta ? s->meta.tn_stride : 5;
  int children = s->have_meta ? s->meta.t_children : 4;

  *children_field = children >= 0 ? (guint) children : stride;
  return stride;
}

void
arkts_heap_summary_trace_node (ArktsHeapSummary *s,
                               const gint64 *fields)
{
  const Meta *m = &s->meta;
  int t_id = s->have_meta ? m->t_id : 0, t_fi = s->have_meta ? m->t_fi : 1;
  int t_count = s->have_meta ? m->t_count : 2, t_size = s->have_meta ? m->t_size : 3;
  FunctionStat *f = t_fi >= 0 ? function_stat (s, fields[t_fi]) : NULL;
  gint64 id = t_id >= 0 ? fields[t_id] : 0;
  gsize live;

  s->trace_nodes++;
  if (f == NULL)
    return;
  if (t_count >= 0)
    f->alloc.count += fields[t_count];
  if (t_size >= 0)
    f->alloc.self_size += fields[t_size];
  /* objects still alive that this trace node allocated */
  live = id > 0 && id < G_MAXUINT32 ? GPOINTER_TO_SIZE (g_hash_table_lookup (s->live_by_trace_node, GSIZE_TO_POINTER ((gsize) id))) : 0;
  if (live > 0)
    {
      SizeStat *l = &g_array_index (s->live, SizeStat, live - 1);
      f->live.count += l->count;
      f->live.self_size += l->self_size;
    }
}

/* ---- samples ---- */

static void
sample_row (ArktsHeapSummary *s,
            TraceBatch *out)
{
  const Meta *m = &s->meta;
  gint64 ts_us = m->s_ts >= 0 ? s->row[m->s_ts] : 0;
  TraceEvent *ev;

  s->samples++;
  s->env->stats->heap_samples++;
  s->last_sample_us = MAX (s->last_sample_us, ts_us);
  if (m->s_last_id < 0)
    return;
  ev = arkts_append (out, TRACE_EVENT_COUNTER, trace_time_add_saturated (s->start_ts, arkts_us_to_ns ((double) ts_us)),
                     s->env->pid, TRACE_ID_UNKNOWN,
                     trace_string_pool_intern (s->env->pool, "JS heap last assigned id"));
  ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  ev->u.counter.value = (double) s->row[m->s_last_id];
}

/* ---- the flat arrays ---- */

static guint
section_stride (ArktsHeapSummary *s,
                ArktsSection section)
{
  switch (section)
    {
    case ARKTS_SECTION_NODES:
      return s->meta.node_stride;
    case ARKTS_SECTION_EDGES:
      return s->meta.edge_stride;
    case ARKTS_SECTION_TRACE_FUNCTION_INFOS:
      return s->meta.tfi_stride;
    case ARKTS_SECTION_SAMPLES:
      return s->meta.sample_stride;
    default:
      return 1;
    }
}

void
arkts_heap_summary_section_begin (ArktsHeapSummary *s,
                                  ArktsSection section)
{
  s->field = 0;
  s->stride = s->have_meta ? section_stride (s, section) : 1;
  if (section == ARKTS_SECTION_STRINGS)
    {
      /* Everything that refers to strings usually came before them: keep
       * only the names the summary prints. Otherwise keep them all. */
      s->strings_begun = TRUE;
      if (!s->have_meta || s->nodes == 0)
        {
          s->keep_all_strings = TRUE;
          s->all_strings = g_ptr_array_new_with_free_func (g_free);
        }
      else
        choose_top (s);
    }
}

void
arkts_heap_summary_number (ArktsHeapSummary *s,
                           ArktsSection section,
                           gint64 value,
                           TraceBatch *out)
{
  if (!s->have_meta && (section == ARKTS_SECTION_NODES || section == ARKTS_SECTION_EDGES || section == ARKTS_SECTION_SAMPLES || section == ARKTS_SECTION_TRACE_FUNCTION_INFOS))
    {
      if (s->early[section] == NULL)
        s->early[section] = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_array_append_val (s->early[section], value);
      return;
    }
  if (section == ARKTS_SECTION_LOCATIONS)
    {
      s->locations++;
      return;
    }
  /* a counter, not index % stride: this runs for every number */
  s->row[s->field] = value;
  if (++s->field < s->stride)
    return;
  s->field = 0;
  switch (section)
    {
    case ARKTS_SECTION_NODES:
      node_row (s);
      break;
    case ARKTS_SECTION_EDGES:
      edge_row (s);
      break;
    case ARKTS_SECTION_TRACE_FUNCTION_INFOS:
      g_array_append_vals (s->tfi, s->row, s->stride);
      break;
    case ARKTS_SECTION_SAMPLES:
      sample_row (s, out);
      break;
    default:
      break;
    }
}

void
arkts_heap_summary_section_end (ArktsHeapSummary *s,
                                ArktsSection section,
                                guint64 n_values)
{
  guint stride;

  if (!s->have_meta || section == ARKTS_SECTION_LOCATIONS || section == ARKTS_SECTION_STRINGS)
    {
      if (section == ARKTS_SECTION_STRINGS)
        s->n_strings = n_values;
      return;
    }
  stride = section_stride (s, section);
  if (n_values % stride != 0)
    arkts_env_skip (s->env, section == ARKTS_SECTION_EDGES ? ARKTS_SKIP_BAD_EDGE : ARKTS_SKIP_BAD_NODE,
                    *s->line_src, *s->offset_src,
                    "\"%s\" has %" G_GUINT64_FORMAT " values, not a multiple of its %u fields; the last %u ignored",
                    arkts_section_name (section), n_values, stride, (guint) (n_values % stride));
}

/* Arrays that came before the meta, fed again now that strides are known;
 * in V8's key order this never happens. */
static void
replay_early (ArktsHeapSummary *s)
{
  static const ArktsSection order[] = { ARKTS_SECTION_NODES, ARKTS_SECTION_EDGES,
                                        ARKTS_SECTION_TRACE_FUNCTION_INFOS, ARKTS_SECTION_SAMPLES };

  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      GArray *values = s->early[order[k]];
      if (values == NULL)
        continue;
      s->early[order[k]] = NULL;
      arkts_heap_summary_section_begin (s, order[k]);
      /* samples make counter events, which need a batch: those before the
       * meta are only counted */
      for (guint i = 0; i < values->len; i++)
        if (order[k] != ARKTS_SECTION_SAMPLES)
          arkts_heap_summary_number (s, order[k], g_array_index (values, gint64, i), NULL);
      if (order[k] == ARKTS_SECTION_SAMPLES)
        s->samples += values->len / s->meta.sample_stride;
      arkts_heap_summary_section_end (s, order[k], values->len);
      g_array_unref (values);
    }
}

/* ---- strings ---- */

gboolean
arkts_heap_summary_wants_string (ArktsHeapSummary *s,
                                 guint64 index)
{
  return s->keep_all_strings || g_hash_table_contains (s->wanted, GSIZE_TO_POINTER ((gsize) index + 1));
}

void
arkts_heap_summary_string (ArktsHeapSummary *s,
                           guint64 index,
                           const char *str,
                           gsize len)
{
  if (s->keep_all_strings)
    {
      if (index == s->all_strings->len)
        g_ptr_array_add (s->all_strings, g_strndup (str, len));
      return;
    }
  g_hash_table_insert (s->wanted, GSIZE_TO_POINTER ((gsize) index + 1), g_strndup (str, len));
}

gboolean
arkts_heap_summary_is_timeline (ArktsHeapSummary *s)
{
  return s->samples > 0 || s->trace_nodes > 0 || s->tfi->len > 0;
}

/* ---- the summary ---- */

static int
compare_classes (gconstpointer a,
                 gconstpointer b)
{
  const ClassStat *x = a, *y = b;

  if (x->stat.self_size != y->stat.self_size)
    return x->stat.self_size > y->stat.self_size ? -1 : 1;
  if (x->stat.count != y->stat.count)
    return x->stat.count > y->stat.count ? -1 : 1;
  return x->name < y->name ? -1 : x->name > y->name;
}

static void
want_string (ArktsHeapSummary *s,
             gint64 index)
{
  if (index >= 0)
    g_hash_table_insert (s->wanted, GSIZE_TO_POINTER ((gsize) index + 1), NULL);
}

static void
choose_top_classes (ArktsHeapSummary *s)
{
  g_autoptr (GArray) all = g_array_sized_new (FALSE, FALSE, sizeof (ClassStat), s->classes->len + 8);
  guint n_types = s->meta.type_names->len;

  g_array_append_vals (all, s->classes->data, s->classes->len);
  for (guint t = 0; t <= n_types; t++)
    if (s->types[t].count > 0 && (t == n_types || !s->meta.type_by_name[t]))
      {
        ClassStat c = { s->types[t], -1, t };
        g_array_append_val (all, c);
      }
  g_array_sort (all, compare_classes);
  g_array_append_vals (s->top_classes, all->data, MIN (all->len, s->env->top_n));
  for (guint i = 0; i < s->top_classes->len; i++)
    want_string (s, g_array_index (s->top_classes, ClassStat, i).name);
}

static int
compare_functions (gconstpointer a,
                   gconstpointer b,
                   gpointer user_data)
{
  GArray *functions = user_data;
  const FunctionStat *x = &g_array_index (functions, FunctionStat, *(const guint *) a);
  const FunctionStat *y = &g_array_index (functions, FunctionStat, *(const guint *) b);

  if (x->alloc.self_size != y->alloc.self_size)
    return x->alloc.self_size > y->alloc.self_size ? -1 : 1;
  if (x->alloc.count != y->alloc.count)
    return x->alloc.count > y->alloc.count ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

static gint64
tfi_field (ArktsHeapSummary *s,
           guint function,
           int field)
{
  guint stride = s->have_meta ? s->meta.tfi_stride : 6;

  if (field < 0 || (guint64) (function + 1) * stride > s->tfi->len)
    return -1;
  return g_array_index (s->tfi, gint64, (gsize) function * stride + field);
}

static void
choose_top (ArktsHeapSummary *s)
{
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));

  if (s->top_classes->len > 0 || s->top_functions->len > 0 || !s->have_meta)
    return;
  choose_top_classes (s);
  for (guint i = 0; i < s->functions->len; i++)
    if (g_array_index (s->functions, FunctionStat, i).alloc.count > 0)
      g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_functions, s->functions);
  g_array_append_vals (s->top_functions, order->data, MIN (order->len, s->env->top_n));
  for (guint i = 0; i < s->top_functions->len; i++)
    {
      guint f = g_array_index (s->top_functions, guint, i);
      want_string (s, tfi_field (s, f, s->meta.f_name));
      want_string (s, tfi_field (s, f, s->meta.f_script_name));
    }
}

static const char *
string_at (ArktsHeapSummary *s,
           gint64 index)
{
  if (index < 0)
    return NULL;
  if (s->keep_all_strings)
    return (guint64) index < s->all_strings->len ? g_ptr_array_index (s->all_strings, index) : NULL;
  return g_hash_table_lookup (s->wanted, GSIZE_TO_POINTER ((gsize) index + 1));
}

/* DevTools' className() for the classes grouped by type. */
static char *
class_name (ArktsHeapSummary *s,
            const ClassStat *c)
{
  const char *type;
  const char *name;

  if (c->name >= 0)
    {
      name = string_at (s, c->name);
      return name ? g_strdup (name) : g_strdup_printf ("(string %" G_GINT64_FORMAT ")", c->name);
    }
  if (c->type >= s->meta.type_names->len)
    return g_strdup ("(unknown type)");
  type = g_ptr_array_index (s->meta.type_names, c->type);
  if (strcmp (type, "hidden") == 0)
    return g_strdup ("(system)");
  if (strcmp (type, "code") == 0)
    return g_strdup ("(compiled code)");
  return g_strdup_printf ("(%s)", type);
}

static void
add_size_args (TraceBatch *out,
               TraceEvent *ev,
               const char *prefix,
               const SizeStat *stat,
               const char *size_key)
{
  g_autofree char *count_key = g_strdup_printf ("%s.count", prefix);
  g_autofree char *self_key = g_strdup_printf ("%s.%s", prefix, size_key);

  trace_batch_add_arg_int (out, ev, count_key, (gint64) stat->count);
  trace_batch_add_arg_int (out, ev, self_key, (gint64) stat->self_size);
}

static void
emit_counter (ArktsHeapSummary *s,
              TraceBatch *out,
              gint64 ts,
              const char *name,
              guint64 value,
              const char *unit)
{
  TraceEvent *ev = arkts_append (out, TRACE_EVENT_COUNTER, ts, s->env->pid, TRACE_ID_UNKNOWN,
                                 trace_string_pool_intern (s->env->pool, name));

  ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  ev->u.counter.value = (double) value;
  ev->u.counter.unit = unit ? trace_string_pool_intern (s->env->pool, unit) : 0;
}

static TraceEvent *
append_instant (ArktsHeapSummary *s,
                TraceBatch *out,
                gint64 ts,
                const char *name)
{
  TraceEvent *ev = arkts_append (out, TRACE_EVENT_INSTANT, ts, s->env->pid, TRACE_ID_UNKNOWN,
                                 trace_string_pool_intern (s->env->pool, name));

  ev->flags = s->env->pid == TRACE_ID_UNKNOWN ? TRACE_EVENT_FLAG_SCOPE_GLOBAL : TRACE_EVENT_FLAG_SCOPE_PROCESS;
  return ev;
}

static void
emit_snapshot_summary (ArktsHeapSummary *s,
                       TraceBatch *out,
                       gint64 ts)
{
  TraceEvent *ev = append_instant (s, out, ts, "JS heap snapshot");
  guint n_types = s->meta.type_names->len;

  trace_batch_add_arg_int (out, ev, "snapshot", s->index);
  trace_batch_add_arg_string (out, ev, "kind", arkts_heap_summary_is_timeline (s) ? "timeline" : "snapshot");
  trace_batch_add_arg_int (out, ev, "node_count", (gint64) s->nodes);
  trace_batch_add_arg_int (out, ev, "edge_count", (gint64) s->edges);
  trace_batch_add_arg_int (out, ev, "self_size", (gint64) s->self_size);
  trace_batch_add_arg_int (out, ev, "string_count", (gint64) s->n_strings);
  for (guint t = 0; t <= n_types; t++)
    if (s->types[t].count > 0)
      {
        g_autofree char *prefix = g_strdup_printf ("types.%s", t < n_types ? (char *) g_ptr_array_index (s->meta.type_names, t) : "(unknown)");
        add_size_args (out, ev, prefix, &s->types[t], "self_size");
      }
  for (guint i = 0; i < s->top_classes->len; i++)
    {
      const ClassStat *c = &g_array_index (s->top_classes, ClassStat, i);
      g_autofree char *prefix = g_strdup_printf ("constructors[%u]", i);
      g_autofree char *name_key = g_strdup_printf ("%s.name", prefix);
      g_autofree char *name = class_name (s, c);
      trace_batch_add_arg_string (out, ev, name_key, name);
      add_size_args (out, ev, prefix, &c->stat, "self_size");
    }
  if (s->meta.n_detachedness >= 0)
    add_size_args (out, ev, "detached", &s->detached, "self_size");
}

static void
emit_function_args (ArktsHeapSummary *s,
                    TraceBatch *out,
                    TraceEvent *ev,
                    guint rank,
                    guint f)
{
  const FunctionStat *stat = &g_array_index (s->functions, FunctionStat, f);
  g_autofree char *prefix = g_strdup_printf ("functions[%u]", rank);
  g_autofree char *name_key = g_strdup_printf ("%s.name", prefix);
  g_autofree char *script_key = g_strdup_printf ("%s.script", prefix);
  g_autofree char *line_key = g_strdup_printf ("%s.line", prefix);
  g_autofree char *column_key = g_strdup_printf ("%s.column", prefix);
  g_autofree char *live_prefix = g_strdup_printf ("%s.live", prefix);
  const char *name = string_at (s, tfi_field (s, f, s->meta.f_name));
  const char *script = string_at (s, tfi_field (s, f, s->meta.f_script_name));

  trace_batch_add_arg_string (out, ev, name_key, name && *name ? name : "(anonymous)");
  if (script && *script)
    trace_batch_add_arg_string (out, ev, script_key, script);
  trace_batch_add_arg_int (out, ev, line_key, tfi_field (s, f, s->meta.f_line));
  trace_batch_add_arg_int (out, ev, column_key, tfi_field (s, f, s->meta.f_column));
  add_size_args (out, ev, prefix, &stat->alloc, "size");
  add_size_args (out, ev, live_prefix, &stat->live, "size");
}

static void
emit_allocations (ArktsHeapSummary *s,
                  TraceBatch *out,
                  gint64 ts)
{
  TraceEvent *ev = append_instant (s, out, ts, "JS heap allocations");
  SizeStat total = { 0, 0 };
  guint n_functions = 0;

  for (guint i = 0; i < s->functions->len; i++)
    {
      const FunctionStat *f = &g_array_index (s->functions, FunctionStat, i);
      total.count += f->alloc.count;
      total.self_size += f->alloc.self_size;
      n_functions += f->alloc.count > 0;
    }
  trace_batch_add_arg_int (out, ev, "snapshot", s->index);
  trace_batch_add_arg_int (out, ev, "function_count", n_functions);
  trace_batch_add_arg_int (out, ev, "trace_node_count", (gint64) s->trace_nodes);
  add_size_args (out, ev, "allocated", &total, "size");
  for (guint i = 0; i < s->top_functions->len; i++)
    emit_function_args (s, out, ev, i, g_array_index (s->top_functions, guint, i));
}

static void
check_counts (ArktsHeapSummary *s)
{
  const Meta *m = &s->meta;

  if (m->declared_nodes >= 0 && (guint64) m->declared_nodes != s->nodes)
    arkts_env_skip (s->env, ARKTS_SKIP_COUNT_MISMATCH, *s->line_src, *s->offset_src,
                    "snapshot %u: node_count says %" G_GINT64_FORMAT ", nodes has %" G_GUINT64_FORMAT,
                    s->index, m->declared_nodes, s->nodes);
  if (m->declared_edges >= 0 && (guint64) m->declared_edges != s->edges)
    arkts_env_skip (s->env, ARKTS_SKIP_COUNT_MISMATCH, *s->line_src, *s->offset_src,
                    "snapshot %u: edge_count says %" G_GINT64_FORMAT ", edges has %" G_GUINT64_FORMAT,
                    s->index, m->declared_edges, s->edges);
  if (m->n_edge_count >= 0 && s->edge_count_sum != s->edges)
    arkts_env_skip (s->env, ARKTS_SKIP_COUNT_MISMATCH, *s->line_src, *s->offset_src,
                    "snapshot %u: the nodes' edge_count add up to %" G_GUINT64_FORMAT ", edges has %" G_GUINT64_FORMAT,
                    s->index, s->edge_count_sum, s->edges);
}

/**
 * arkts_heap_summary_emit:
 *
 * Appends what the document adds up to, at the time of its last sample
 * (the end of a timeline) or its start time (a snapshot): three counters
 * and a summary instant, plus the allocation summary of a timeline.
 */
void
arkts_heap_summary_emit (ArktsHeapSummary *s,
                         TraceBatch *out)
{
  /* the sample's time is the input's: clamped, and added saturated */
  gint64 ts = trace_time_add_saturated (s->start_ts, arkts_us_to_ns ((double) s->last_sample_us));

  choose_top (s);
  check_counts (s);
  emit_counter (s, out, ts, "JS heap self size", s->self_size, "bytes");
  emit_counter (s, out, ts, "JS heap nodes", s->nodes, NULL);
  emit_counter (s, out, ts, "JS heap edges", s->edges, NULL);
  emit_snapshot_summary (s, out, ts);
  if (s->trace_nodes > 0 || s->tfi->len > 0)
    emit_allocations (s, out, ts);
}
