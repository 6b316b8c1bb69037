/* tracepipe - Perfetto writer: an event's args as debug annotations
 *
 * The event model keeps nested args flattened to dotted keys (`obj.x`,
 * `obj.y[0]`, docs/event-model.md). Written as one flat annotation named
 * `obj.x`, trace_processor sanitizes the name (`debug.obj_x`), since it
 * takes `.`, `[` and `]` in a name for part of the name. So args whose key
 * has `.` or `[N]` components become a tree of nested annotations (a
 * dict_entries message per object, array_values per array), which
 * trace_processor flattens back to `debug.obj.x`, `debug.obj.y[0]`: the
 * keys it gives the original JSON args too, under `args.` instead of
 * `debug.` (a TrackEvent cannot write `args.`).
 *
 * Consecutive args sharing a prefix share its nodes. trace_processor
 * numbers the elements of an array by position, counting only elements
 * that add a row or hold a `legacy_json_value`; reading a JSON array it
 * counts every element but nulls. So the elements are written in the
 * order of the args; a null element (TRACE_ARG_NULL) is passed over and
 * its index closes up, as trace_processor's JSON import does; an empty
 * array or object element (TRACE_ARG_EMPTY_ARRAY, _OBJECT: no row, but
 * an index in the JSON) is written as the `legacy_json_value` "[]" or
 * "{}", which takes its index and adds no row (`"Input dims": [[], [32]]`
 * of a PyTorch trace keeps `Input dims[1][0]`). Other empty containers
 * add nothing anywhere and are not written.
 *
 * The annotations are written in wire format as the args come, into
 * w->ann_wire, which perfetto-writer-wire.c copies into the TrackEvent:
 * no struct, tree or pointer array in between (building and walking
 * those cost a tenth of a Chrome trace's conversion). The fields go in
 * protobuf-c's order (field number), so the bytes are those protobuf-c
 * packs for the same annotations.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <string.h>

#include "perfetto-wire-fields.h"
#include "perfetto-wire-inline.h"

/* Deeper keys are written flat: enough for real args, and it bounds the
 * stack of open nodes. */
#define PERFETTO_ARG_MAX_DEPTH 16

typedef struct
{
  const char *s; /* name: its bytes in the key */
  guint len;
  guint32 index; /* an index `[N]` when s is NULL */
} ArgComp;

/* A component as the writer keeps it: the name interned, or an index. */
typedef struct
{
  guint32 name; /* pool id, when !is_index */
  guint32 index;
  gboolean is_index;
} ArgCompId;

/* A node of the nested arg being written, open for the args after it
 * that share its prefix. */
typedef struct
{
  ArgCompId comp;
  gboolean is_array; /* its children are indices */
  gsize at;          /* the length slot of its message in w->ann_wire */
} OpenNode;

/* Keys repeat from event to event: each one's components are split and
 * interned once, then found by the key's id in a direct-mapped cache
 * (splitting and interning every time cost a tenth of a Chrome trace's
 * conversion). The components live in one array, emptied with the cache
 * when it grows past ARG_COMPS_MAX, so memory stays bounded whatever the
 * number of distinct keys. */
#define ARG_KEY_SLOTS 4096
#define ARG_COMPS_MAX 65536

typedef struct
{
  guint32 key;   /* pool id of the whole key */
  guint32 first; /* its components in comps */
  guint8 n;      /* 0: a key written flat */
  gboolean valid;
} ArgKeySlot;

struct _PerfettoArgKeys
{
  ArgKeySlot slots[ARG_KEY_SLOTS];
  GArray *comps; /* ArgCompId */
};

/* Splits @key into a name followed by `.name` and `[N]` components.
 * Returns: the number of components, 0 for a key to write flat: a plain
 * name (the common case, found by one scan), or one that does not parse
 * (empty names, `[` without digits and `]`, too deep), whose name
 * trace_processor sanitizes as before. */
static guint
parse_key (const char *key,
           ArgComp *comps)
{
  const char *p = key;
  guint n = 0;

  if (strpbrk (key, ".[") == NULL)
    return 0;
  while (*p != '\0')
    {
      if (n == PERFETTO_ARG_MAX_DEPTH)
        return 0;
      if (n > 0 && *p == '[')
        {
          guint64 index = 0;
          const char *d = ++p;

          while (*p >= '0' && *p <= '9' && p - d < 9)
            index = index * 10 + (guint64) (*p++ - '0');
          if (p == d || *p++ != ']')
            return 0;
          comps[n++] = (ArgComp){ NULL, 0, (guint32) index };
          continue;
        }
      if (n > 0 && *p++ != '.')
        return 0;
      comps[n].s = p;
      comps[n].len = (guint) strcspn (p, ".[");
      comps[n].index = 0;
      if (comps[n].len == 0)
        return 0;
      p += comps[n++].len;
    }
  return n;
}

static gboolean
comp_equal (const ArgCompId *a,
            const ArgCompId *b)
{
  if (a->is_index || b->is_index)
    return a->is_index == b->is_index && a->index == b->index;
  return a->name == b->name;
}

/* Splits and interns @key, into the cache. */
static const ArgKeySlot *
key_parse (PerfettoWriter *w,
           ArgKeySlot *slot,
           guint32 key)
{
  PerfettoArgKeys *keys = w->arg_keys;
  ArgComp comps[PERFETTO_ARG_MAX_DEPTH];
  guint n = parse_key (perfetto_str (w, key), comps);

  if (keys->comps->len + n > ARG_COMPS_MAX)
    {
      memset (keys->slots, 0, sizeof keys->slots);
      g_array_set_size (keys->comps, 0);
    }
  slot->key = key;
  slot->first = keys->comps->len;
  slot->n = (guint8) n;
  slot->valid = TRUE;
  for (guint i = 0; i < n; i++)
    {
      ArgCompId id = { 0, comps[i].index, comps[i].s == NULL };

      if (!id.is_index)
        id.name = trace_string_pool_intern_len (w->pool, comps[i].s, comps[i].len);
      g_array_append_val (keys->comps, id);
    }
  return slot;
}

static const ArgKeySlot *
key_lookup (PerfettoWriter *w,
            guint32 key)
{
  ArgKeySlot *slot;

  if (G_UNLIKELY (w->arg_keys == NULL))
    {
      w->arg_keys = g_new0 (PerfettoArgKeys, 1);
      w->arg_keys->comps = g_array_new (FALSE, FALSE, sizeof (ArgCompId));
    }
  slot = &w->arg_keys->slots[key % ARG_KEY_SLOTS];
  if (slot->valid && slot->key == key)
    return slot;
  return key_parse (w, slot, key);
}

/**
 * perfetto_args_free:
 * @w: a #PerfettoWriter
 *
 * Frees the annotations buffer and the cache of split keys.
 */
void
perfetto_args_free (PerfettoWriter *w)
{
  g_clear_pointer (&w->ann_wire.data, g_free);
  if (w->arg_keys == NULL)
    return;
  g_array_unref (w->arg_keys->comps);
  g_clear_pointer (&w->arg_keys, g_free);
}

/* How many of the @depth open nodes the nested arg of @comps (@n of
 * them) shares: same components, and the same kind of children (an
 * object and an array of the same name cannot share a node). */
static guint
shared_prefix (const OpenNode *open,
               guint depth,
               const ArgCompId *comps,
               guint n)
{
  guint d = 0;

  while (d < depth && d < n - 1 && comp_equal (&open[d].comp, &comps[d]) && open[d].is_array == comps[d + 1].is_index)
    d++;
  return d;
}

#define DA(x) PERFETTO__PROTOS__DEBUG_ANNOTATION__##x

/* The field of a child of @parent (NULL: top level). */
static guint32
wire_child_field (const OpenNode *parent)
{
  if (parent == NULL)
    return F_TE_DEBUG_ANNOTATIONS;
  return parent->is_array ? F_DA_ARRAY_VALUES : F_DA_DICT_ENTRIES;
}

/* Returns: whether the value is a string_value_iid, stored in @str_iid
 * for the caller to write last (field 17) */
static gboolean
wire_value (PerfettoWriter *w,
            const TraceArg *arg,
            const char *text,
            guint64 *str_iid)
{
  PerfettoWireBuf *b = &w->ann_wire;

  switch ((TraceArgType) arg->type)
    {
    case TRACE_ARG_INT:
      put_varint (b, DA (VALUE_INT_VALUE), (guint64) arg->v.i);
      break;
    case TRACE_ARG_UINT:
      put_varint (b, DA (VALUE_UINT_VALUE), arg->v.u);
      break;
    case TRACE_ARG_DOUBLE:
      put_double (b, DA (VALUE_DOUBLE_VALUE), arg->v.d);
      break;
    case TRACE_ARG_BOOL:
      put_varint (b, DA (VALUE_BOOL_VALUE), arg->v.b != 0);
      break;
    case TRACE_ARG_POINTER:
      put_varint (b, DA (VALUE_POINTER_VALUE), arg->v.u);
      break;
    case TRACE_ARG_TEXT:
      put_string (b, DA (VALUE_STRING_VALUE), text + arg->v.text.offset);
      break;
    case TRACE_ARG_EMPTY_ARRAY:
      put_string (b, DA (VALUE_LEGACY_JSON_VALUE), "[]");
      break;
    case TRACE_ARG_EMPTY_OBJECT:
      put_string (b, DA (VALUE_LEGACY_JSON_VALUE), "{}");
      break;
    case TRACE_ARG_STRING:
    default:
      if (perfetto_intern_enabled (w))
        {
          *str_iid = perfetto_intern_str_value (w, arg->v.s);
          return TRUE;
        }
      if (perfetto_str (w, arg->v.s) != NULL)
        put_string (b, DA (VALUE_STRING_VALUE), perfetto_str (w, arg->v.s));
      break;
    }
  return FALSE;
}

/* A leaf: named @name unless it is an array element (@name 0). */
static void
wire_leaf (PerfettoWriter *w,
           guint32 field,
           guint32 name,
           const TraceArg *arg,
           const char *text)
{
  PerfettoWireBuf *b = &w->ann_wire;
  gboolean interned = perfetto_intern_enabled (w);
  gsize slot = wire_open (b, field);
  guint64 str_iid = 0;
  gboolean has_iid;

  if (name != 0 && interned)
    put_varint (b, DA (NAME_FIELD_NAME_IID), perfetto_intern_ann_name (w, name));
  has_iid = wire_value (w, arg, text, &str_iid);
  if (name != 0 && !interned && perfetto_str (w, name) != NULL)
    put_string (b, DA (NAME_FIELD_NAME), perfetto_str (w, name));
  if (has_iid)
    put_varint (b, DA (VALUE_STRING_VALUE_IID), str_iid);
  wire_close (b, slot);
}

/* Opens a node: its name (before its children in field order). */
static gsize
wire_node_open (PerfettoWriter *w,
                guint32 field,
                const ArgCompId *comp)
{
  PerfettoWireBuf *b = &w->ann_wire;
  gsize slot = wire_open (b, field);

  if (comp->is_index)
    return slot;
  if (perfetto_intern_enabled (w))
    put_varint (b, DA (NAME_FIELD_NAME_IID), perfetto_intern_ann_name (w, comp->name));
  else if (perfetto_str (w, comp->name) != NULL)
    put_string (b, DA (NAME_FIELD_NAME), perfetto_str (w, comp->name));
  return slot;
}

/* Closes the open nodes deeper than @keep, innermost first. */
static void
wire_close_nodes (PerfettoWriter *w,
                  const OpenNode *open,
                  guint keep,
                  guint *depth)
{
  while (*depth > keep)
    wire_close (&w->ann_wire, open[--*depth].at);
}

/* Writes one nested arg, reusing the open nodes it shares a prefix with. */
static void
wire_nested (PerfettoWriter *w,
             const TraceArg *arg,
             const char *text,
             const ArgCompId *comps,
             guint n,
             OpenNode *open,
             guint *depth)
{
  guint d = shared_prefix (open, *depth, comps, n);

  wire_close_nodes (w, open, d, depth);
  for (; d < n - 1; d++)
    {
      open[d].comp = comps[d];
      open[d].is_array = comps[d + 1].is_index;
      open[d].at = wire_node_open (w, wire_child_field (d == 0 ? NULL : &open[d - 1]), &comps[d]);
      *depth = d + 1;
    }
  wire_leaf (w, wire_child_field (&open[n - 2]), comps[n - 1].is_index ? 0 : comps[n - 1].name, arg, text);
}

#undef DA

/* An empty array or object that is an array's element: written, so that
 * it takes its index (see the top of the file). */
static gboolean
is_empty_element (PerfettoWriter *w,
                  const TraceArg *arg)
{
  const ArgKeySlot *key;

  if (arg->type == TRACE_ARG_NULL)
    return FALSE;
  key = key_lookup (w, arg->key);
  return key->n >= 2 && g_array_index (w->arg_keys->comps, ArgCompId, key->first + key->n - 1).is_index;
}

/* Args become debug annotations: plain names as one each, dotted keys as
 * trees (see the top of the file). */
void
perfetto_args_write (PerfettoWriter *w,
                     TraceBatch *batch,
                     const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);
  gboolean more_flows = (ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS) != 0; /* te_flows() writes them */
  OpenNode open[PERFETTO_ARG_MAX_DEPTH];
  guint depth = 0;

  for (guint i = 0; i < ev->n_args; i++)
    {
      const TraceArg *arg = &args[i];
      const ArgKeySlot *key;

      if (more_flows && trace_batch_arg_is_slice_flow (batch, ev, arg))
        continue;
      if (trace_arg_is_shape (arg) && !is_empty_element (w, arg))
        continue;
      key = key_lookup (w, arg->key);
      if (key->n < 2)
        {
          wire_close_nodes (w, open, 0, &depth);
          wire_leaf (w, F_TE_DEBUG_ANNOTATIONS, arg->key, arg, batch->text);
          continue;
        }
      wire_nested (w, arg, batch->text, &g_array_index (w->arg_keys->comps, ArgCompId, key->first), key->n, open,
                   &depth);
    }
  wire_close_nodes (w, open, 0, &depth);
}

/**
 * perfetto_args_write_string:
 * @w: a #PerfettoWriter
 * @key: the annotation's name, a pool id
 * @value: its string value, a pool id
 *
 * Appends one more annotation to the args of the TrackEvent being built,
 * after those of perfetto_args_write().
 */
void
perfetto_args_write_string (PerfettoWriter *w,
                            guint32 key,
                            guint32 value)
{
  TraceArg arg = { .key = key, .type = TRACE_ARG_STRING, .v.s = value };

  wire_leaf (w, F_TE_DEBUG_ANNOTATIONS, key, &arg, NULL);
}

/* Starts the annotations of a new TrackEvent. */
void
perfetto_args_reset (PerfettoWriter *w)
{
  w->ann_wire.len = 0;
}
