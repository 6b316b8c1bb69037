/* Unit test: the streaming writer (perfetto-writer-wire.c) gives the same
 * bytes as protobuf-c for the packets it streams. Random
 * packets of each hot type (TrackEvent slice begin/end, counters,
 * instants with every TrackEvent field and Chrome's legacy event; ftrace
 * bundles with full events and compact sched arrays; interned names and
 * strings, now and then with a frame, and defaults on the packet),
 * from a fixed seed and with edge values (0, negatives, maxima, empty,
 * NULL and long strings, absent optional fields, bodies long enough for
 * two- and three-byte lengths), are packed both ways and compared; so are
 * packets of other payloads, which the writer hands to protobuf-c. */
#include "perfetto-test-util.h"

#include <string.h>

#define N_PACKETS 20000
#define SEED 19

typedef struct
{
  GRand *rand;
  GPtrArray *mem; /* everything one packet allocated */
  char *long_string;
} Gen;

static gpointer
gen_alloc (Gen *g,
           gsize size)
{
  gpointer p = g_malloc0 (size);

  g_ptr_array_add (g->mem, p);
  return p;
}

static gboolean
chance (Gen *g,
        guint percent)
{
  return (guint) g_rand_int_range (g->rand, 0, 100) < percent;
}

static guint64
gen_u64 (Gen *g)
{
  static const guint64 edges[] = { 0, 1, 127, 128, 16383, 16384, G_MAXUINT32, (guint64) G_MAXUINT32 + 1,
                                   G_MAXINT64, G_MAXUINT64 };

  switch (g_rand_int_range (g->rand, 0, 4))
    {
    case 0:
      return edges[g_rand_int_range (g->rand, 0, G_N_ELEMENTS (edges))];
    case 1:
      return g_rand_int_range (g->rand, 0, 300);
    case 2:
      return g_rand_int (g->rand);
    default:
      return ((guint64) g_rand_int (g->rand) << 32) | g_rand_int (g->rand);
    }
}

static gint32
gen_i32 (Gen *g)
{
  static const gint32 edges[] = { 0, -1, 1, G_MININT32, G_MAXINT32, -128 };

  if (chance (g, 30))
    return edges[g_rand_int_range (g->rand, 0, G_N_ELEMENTS (edges))];
  return (gint32) gen_u64 (g);
}

/* NULL, empty, short or long (beyond one- and two-byte lengths). */
static char *
gen_string (Gen *g,
            gboolean may_be_null)
{
  guint kind = g_rand_int_range (g->rand, 0, 10);

  if (kind == 0 && may_be_null)
    return NULL;
  if (kind <= 1)
    return "";
  if (kind == 2)
    return g->long_string + g_rand_int_range (g->rand, 0, 20000);
  return g->long_string + 20000 - g_rand_int_range (g->rand, 1, 40);
}

static guint64 *
gen_u64s (Gen *g,
          gsize *n)
{
  guint64 *v;

  *n = chance (g, 70) ? 0 : g_rand_int_range (g->rand, 1, 6);
  v = gen_alloc (g, MAX (*n, 1) * sizeof *v);
  for (gsize i = 0; i < *n; i++)
    v[i] = gen_u64 (g);
  return v;
}

/* ---- TrackEvent packets ---- */

/* Every field of Chrome's legacy event, each present or not. */
static Perfetto__Protos__TrackEvent__LegacyEvent *
gen_legacy_event (Gen *g)
{
  Perfetto__Protos__TrackEvent__LegacyEvent *le = gen_alloc (g, sizeof *le);

  perfetto__protos__track_event__legacy_event__init (le);
  le->has_name_iid = chance (g, 30);
  le->name_iid = gen_u64 (g);
  le->has_phase = chance (g, 60);
  le->phase = gen_i32 (g);
  le->has_duration_us = chance (g, 30);
  le->duration_us = (gint64) gen_u64 (g);
  le->has_thread_duration_us = chance (g, 30);
  le->thread_duration_us = (gint64) gen_u64 (g);
  le->has_unscoped_id = chance (g, 30);
  le->unscoped_id = gen_u64 (g);
  le->id_scope = chance (g, 30) ? gen_string (g, TRUE) : NULL;
  le->has_bind_id = chance (g, 40);
  le->bind_id = gen_u64 (g);
  le->has_local_id = chance (g, 20);
  le->local_id = gen_u64 (g);
  le->has_global_id = chance (g, 20);
  le->global_id = gen_u64 (g);
  le->has_bind_to_enclosing = chance (g, 30);
  le->bind_to_enclosing = chance (g, 50);
  le->has_flow_direction = chance (g, 40);
  le->flow_direction = (Perfetto__Protos__TrackEvent__LegacyEvent__FlowDirection) gen_i32 (g);
  le->has_instant_event_scope = chance (g, 20);
  le->instant_event_scope = (Perfetto__Protos__TrackEvent__LegacyEvent__InstantEventScope) gen_i32 (g);
  return le;
}

#define DA(x) PERFETTO__PROTOS__DEBUG_ANNOTATION__##x

/* Every case of the value oneof, NULL strings included, or none. */
static void
gen_annotation_value (Gen *g,
                      Perfetto__Protos__DebugAnnotation *a)
{
  static const int cases[] = { DA (VALUE__NOT_SET), DA (VALUE_BOOL_VALUE), DA (VALUE_UINT_VALUE),
                               DA (VALUE_INT_VALUE), DA (VALUE_DOUBLE_VALUE), DA (VALUE_STRING_VALUE),
                               DA (VALUE_POINTER_VALUE), DA (VALUE_LEGACY_JSON_VALUE),
                               DA (VALUE_STRING_VALUE_IID) };
  static const double doubles[] = { 0.0, -0.0, 1.5, -1e300, 5e-324, G_MAXDOUBLE };

  a->value_case = cases[g_rand_int_range (g->rand, 0, G_N_ELEMENTS (cases))];
  switch (a->value_case)
    {
    case DA (VALUE_BOOL_VALUE):
      a->bool_value = chance (g, 50);
      break;
    case DA (VALUE_INT_VALUE):
      a->int_value = chance (g, 50) ? (gint64) gen_u64 (g) : gen_i32 (g);
      break;
    case DA (VALUE_DOUBLE_VALUE):
      a->double_value = chance (g, 50) ? doubles[g_rand_int_range (g->rand, 0, G_N_ELEMENTS (doubles))]
                                       : g_rand_double_range (g->rand, -1e9, 1e9);
      break;
    case DA (VALUE_STRING_VALUE):
      a->string_value = gen_string (g, TRUE);
      break;
    case DA (VALUE_LEGACY_JSON_VALUE):
      a->legacy_json_value = gen_string (g, TRUE);
      break;
    case DA (VALUE_UINT_VALUE):
    case DA (VALUE_POINTER_VALUE):
    case DA (VALUE_STRING_VALUE_IID):
      a->uint_value = gen_u64 (g); /* one member of the union for the three */
      break;
    default:
      break;
    }
}

/* Nested annotations (perfetto-sink writes nested args as
 * dict_entries and array_values) are streamed by the wire writer too:
 * the bytes must be protobuf-c's, for every name and value case, and for
 * a value beside nested entries, which protobuf-c packs in field order. */
static Perfetto__Protos__DebugAnnotation *
gen_annotation (Gen *g,
                guint depth)
{
  Perfetto__Protos__DebugAnnotation *a = gen_alloc (g, sizeof *a);
  gsize n;

  perfetto__protos__debug_annotation__init (a);
  if (chance (g, 45))
    {
      a->name_field_case = DA (NAME_FIELD_NAME_IID);
      a->name_iid = gen_u64 (g);
    }
  else if (chance (g, 90))
    {
      a->name_field_case = DA (NAME_FIELD_NAME);
      a->name = gen_string (g, TRUE);
    }
  if (chance (g, 10))
    gen_annotation_value (g, a);
  if (depth < 2 && chance (g, 30))
    {
      n = g_rand_int_range (g->rand, 1, 4);
      if (chance (g, 50))
        {
          a->n_dict_entries = n;
          a->dict_entries = gen_alloc (g, n * sizeof (gpointer));
          for (gsize i = 0; i < n; i++)
            a->dict_entries[i] = gen_annotation (g, depth + 1);
        }
      else
        {
          a->n_array_values = n;
          a->array_values = gen_alloc (g, n * sizeof (gpointer));
          for (gsize i = 0; i < n; i++)
            a->array_values[i] = gen_annotation (g, depth + 1);
        }
      return a;
    }
  gen_annotation_value (g, a);
  return a;
}

#undef DA

static void
gen_track_event_oneofs (Gen *g,
                        PerfettoTrackEvent *te)
{
  switch (g_rand_int_range (g->rand, 0, 3))
    {
    case 0:
      te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
      te->name_iid = gen_u64 (g);
      break;
    case 1:
      te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
      te->name = gen_string (g, TRUE);
      break;
    default:
      break;
    }
  switch (g_rand_int_range (g->rand, 0, 3))
    {
    case 0:
      te->counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
      te->counter_value = (gint64) gen_u64 (g);
      break;
    case 1:
      te->counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
      te->double_counter_value = chance (g, 20) ? -0.0 : (g_rand_double (g->rand) - 0.5) * 1e12;
      break;
    default:
      break;
    }
  switch (g_rand_int_range (g->rand, 0, 3))
    {
    case 0:
      te->thread_time_case = PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_DELTA_US;
      te->thread_time_delta_us = (gint64) gen_u64 (g);
      break;
    case 1:
      te->thread_time_case = PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_ABSOLUTE_US;
      te->thread_time_absolute_us = (gint64) gen_u64 (g);
      break;
    default:
      break;
    }
  switch (g_rand_int_range (g->rand, 0, 3))
    {
    case 0:
      te->thread_instruction_count_case =
          PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_DELTA;
      te->thread_instruction_count_delta = (gint64) gen_u64 (g);
      break;
    case 1:
      te->thread_instruction_count_case =
          PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_ABSOLUTE;
      te->thread_instruction_count_absolute = (gint64) gen_u64 (g);
      break;
    default:
      break;
    }
  if (chance (g, 20))
    {
      gboolean as_string = chance (g, 50);

      te->correlation_id_field_case = as_string ? PERFETTO__PROTOS__TRACK_EVENT__CORRELATION_ID_FIELD_CORRELATION_ID_STR
                                                : PERFETTO__PROTOS__TRACK_EVENT__CORRELATION_ID_FIELD_CORRELATION_ID;
      if (as_string)
        te->correlation_id_str = gen_string (g, TRUE);
      else
        te->correlation_id = gen_u64 (g);
    }
}

static PerfettoTrackEvent *
gen_track_event (Gen *g)
{
  PerfettoTrackEvent *te = gen_alloc (g, sizeof *te);

  perfetto__protos__track_event__init (te);
  te->has_type = chance (g, 90);
  te->type = g_rand_int_range (g->rand, 0, 5);
  te->has_track_uuid = chance (g, 90);
  te->track_uuid = gen_u64 (g);
  gen_track_event_oneofs (g, te);
  te->category_iids = gen_u64s (g, &te->n_category_iids);
  te->extra_counter_values = (gint64 *) gen_u64s (g, &te->n_extra_counter_values);
  te->extra_counter_track_uuids = gen_u64s (g, &te->n_extra_counter_track_uuids);
  te->flow_ids = gen_u64s (g, &te->n_flow_ids);
  te->terminating_flow_ids = gen_u64s (g, &te->n_terminating_flow_ids);
  te->n_categories = chance (g, 80) ? 0 : g_rand_int_range (g->rand, 1, 4);
  te->categories = gen_alloc (g, MAX (te->n_categories, 1) * sizeof (char *));
  for (gsize i = 0; i < te->n_categories; i++)
    te->categories[i] = gen_string (g, FALSE); /* protobuf-c cannot size NULL */
  te->n_debug_annotations = chance (g, 80) ? 0 : g_rand_int_range (g->rand, 1, 4);
  te->debug_annotations = gen_alloc (g, MAX (te->n_debug_annotations, 1) * sizeof (gpointer));
  for (gsize i = 0; i < te->n_debug_annotations; i++)
    te->debug_annotations[i] = gen_annotation (g, 0);
  if (chance (g, 20))
    te->legacy_event = gen_legacy_event (g);
  return te;
}

/* The writer's slice begin, end and counter shapes: just these fields. */
static PerfettoTrackEvent *
gen_hot_track_event (Gen *g)
{
  PerfettoTrackEvent *te = gen_alloc (g, sizeof *te);

  perfetto__protos__track_event__init (te);
  te->has_type = te->has_track_uuid = TRUE;
  te->type = g_rand_int_range (g->rand, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
                               PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER + 1);
  te->track_uuid = gen_u64 (g);
  if (te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER)
    {
      te->counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
      te->counter_value = (gint64) gen_u64 (g);
    }
  else if (te->type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END)
    {
      te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
      te->name_iid = gen_u64 (g);
    }
  return te;
}

/* ---- ftrace bundles ---- */

/* sched_wakeup and sched_waking have the same fields. */
#define GEN_WAKEUP(g, wk)                    \
  G_STMT_START                               \
  {                                          \
    (wk)->comm = gen_string ((g), TRUE);     \
    (wk)->has_pid = chance ((g), 80);        \
    (wk)->has_prio = chance ((g), 80);       \
    (wk)->has_success = chance ((g), 50);    \
    (wk)->has_target_cpu = chance ((g), 80); \
    (wk)->pid = gen_i32 (g);                 \
    (wk)->prio = gen_i32 (g);                \
    (wk)->success = gen_i32 (g);             \
    (wk)->target_cpu = gen_i32 (g);          \
  }                                          \
  G_STMT_END

static PerfettoFtraceEvent *
gen_ftrace_event (Gen *g)
{
  PerfettoFtraceEvent *fev = gen_alloc (g, sizeof *fev);
  Perfetto__Protos__SchedWakeupFtraceEvent *wk;
  Perfetto__Protos__SchedSwitchFtraceEvent *sw;
  Perfetto__Protos__PrintFtraceEvent *print;
  Perfetto__Protos__SchedWakingFtraceEvent *waking;
  Perfetto__Protos__CpuFrequencyFtraceEvent *freq;

  perfetto__protos__ftrace_event__init (fev);
  fev->has_timestamp = chance (g, 95);
  fev->timestamp = gen_u64 (g);
  fev->has_pid = chance (g, 90);
  fev->pid = (guint32) gen_u64 (g);
  fev->has_common_flags = chance (g, 30);
  fev->common_flags = (guint32) gen_u64 (g);
  switch (g_rand_int_range (g->rand, 0, 6))
    {
    case 0: /* members numbered after common_flags */
      wk = gen_alloc (g, sizeof *wk);
      perfetto__protos__sched_wakeup_ftrace_event__init (wk);
      GEN_WAKEUP (g, wk);
      fev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP;
      fev->sched_wakeup = wk;
      break;
    case 4:
      waking = gen_alloc (g, sizeof *waking);
      perfetto__protos__sched_waking_ftrace_event__init (waking);
      GEN_WAKEUP (g, waking);
      fev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING;
      fev->sched_waking = waking;
      break;
    case 5: /* packed by protobuf-c inside a streamed event */
      freq = gen_alloc (g, sizeof *freq);
      perfetto__protos__cpu_frequency_ftrace_event__init (freq);
      fev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY;
      fev->cpu_frequency = freq;
      break;
    case 1: /* and members numbered before it */
      sw = gen_alloc (g, sizeof *sw);
      perfetto__protos__sched_switch_ftrace_event__init (sw);
      sw->prev_comm = gen_string (g, TRUE);
      sw->next_comm = gen_string (g, TRUE);
      sw->has_prev_pid = chance (g, 80);
      sw->has_prev_prio = chance (g, 80);
      sw->has_prev_state = chance (g, 80);
      sw->has_next_pid = chance (g, 80);
      sw->has_next_prio = chance (g, 80);
      sw->prev_pid = gen_i32 (g);
      sw->prev_prio = gen_i32 (g);
      sw->prev_state = (gint64) gen_u64 (g);
      sw->next_pid = gen_i32 (g);
      sw->next_prio = gen_i32 (g);
      fev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
      fev->sched_switch = sw;
      break;
    case 2:
      print = gen_alloc (g, sizeof *print);
      perfetto__protos__print_ftrace_event__init (print);
      print->buf = gen_string (g, TRUE);
      print->has_ip = chance (g, 50);
      print->ip = gen_u64 (g);
      fev->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT;
      fev->print = print;
      break;
    default:
      break;
    }
  return fev;
}

#define GEN_ARRAY(g, cs, field, type, expr)                    \
  G_STMT_START                                                 \
  {                                                            \
    (cs)->field = gen_alloc ((g), MAX (n, 1) * sizeof (type)); \
    (cs)->n_##field = n;                                       \
    for (gsize i_ = 0; i_ < n; i_++)                           \
      (cs)->field[i_] = (type) (expr);                         \
  }                                                            \
  G_STMT_END

static Perfetto__Protos__FtraceEventBundle__CompactSched *
gen_compact_sched (Gen *g)
{
  Perfetto__Protos__FtraceEventBundle__CompactSched *cs = gen_alloc (g, sizeof *cs);
  gsize n = chance (g, 10) ? 0 : g_rand_int_range (g->rand, 1, chance (g, 10) ? 5000 : 50);

  perfetto__protos__ftrace_event_bundle__compact_sched__init (cs);
  GEN_ARRAY (g, cs, switch_timestamp, guint64, gen_u64 (g));
  GEN_ARRAY (g, cs, switch_prev_state, gint64, gen_u64 (g));
  GEN_ARRAY (g, cs, switch_next_pid, gint32, gen_i32 (g));
  GEN_ARRAY (g, cs, switch_next_prio, gint32, gen_i32 (g));
  GEN_ARRAY (g, cs, switch_next_comm_index, guint32, gen_u64 (g));
  n = g_rand_int_range (g->rand, 0, 5);
  GEN_ARRAY (g, cs, intern_table, char *, gen_string (g, FALSE));
  n = chance (g, 30) ? 0 : g_rand_int_range (g->rand, 1, 50);
  GEN_ARRAY (g, cs, waking_timestamp, guint64, gen_u64 (g));
  GEN_ARRAY (g, cs, waking_pid, gint32, gen_i32 (g));
  GEN_ARRAY (g, cs, waking_target_cpu, gint32, gen_i32 (g));
  GEN_ARRAY (g, cs, waking_prio, gint32, gen_i32 (g));
  GEN_ARRAY (g, cs, waking_comm_index, guint32, gen_u64 (g));
  GEN_ARRAY (g, cs, waking_common_flags, guint32, gen_u64 (g));
  return cs;
}

static Perfetto__Protos__FtraceEventBundle *
gen_bundle (Gen *g)
{
  Perfetto__Protos__FtraceEventBundle *b = gen_alloc (g, sizeof *b);

  perfetto__protos__ftrace_event_bundle__init (b);
  b->has_cpu = chance (g, 90);
  b->cpu = (guint32) gen_u64 (g);
  b->has_lost_events = chance (g, 20);
  b->lost_events = chance (g, 50);
  b->n_event = chance (g, 20) ? 0 : g_rand_int_range (g->rand, 1, chance (g, 10) ? 2000 : 20);
  b->event = gen_alloc (g, MAX (b->n_event, 1) * sizeof (gpointer));
  for (gsize i = 0; i < b->n_event; i++)
    b->event[i] = gen_ftrace_event (g);
  if (chance (g, 70))
    b->compact_sched = gen_compact_sched (g);
  return b;
}

/* ---- packets ---- */

/* @n entries of a name list (EventName, EventCategory and
 * DebugAnnotationName share their layout), or of InternedStrings. */
static gpointer *
gen_named (Gen *g,
           gsize *n,
           void (*init) (gpointer))
{
  gpointer *list;

  *n = chance (g, 50) ? 0 : g_rand_int_range (g->rand, 1, 4);
  list = gen_alloc (g, MAX (*n, 1) * sizeof (gpointer));
  for (gsize i = 0; i < *n; i++)
    {
      Perfetto__Protos__EventName *e = gen_alloc (g, sizeof *e);

      init (e);
      e->has_iid = chance (g, 90);
      e->iid = gen_u64 (g);
      e->name = chance (g, 90) ? gen_string (g, FALSE) : NULL;
      list[i] = e;
    }
  return list;
}

static Perfetto__Protos__InternedString **
gen_strings (Gen *g,
             gsize *n)
{
  Perfetto__Protos__InternedString **list;

  *n = chance (g, 60) ? 0 : g_rand_int_range (g->rand, 1, 4);
  list = gen_alloc (g, MAX (*n, 1) * sizeof (gpointer));
  for (gsize i = 0; i < *n; i++)
    {
      Perfetto__Protos__InternedString *s = gen_alloc (g, sizeof *s);
      const char *text = gen_string (g, FALSE);

      perfetto__protos__interned_string__init (s);
      s->has_iid = chance (g, 90);
      s->iid = gen_u64 (g);
      s->has_str = chance (g, 90);
      s->str.data = (guint8 *) text;
      s->str.len = strlen (text);
      list[i] = s;
    }
  return list;
}

/* The names and strings a TrackEvent stream interns (streamed), and now
 * and then a frame, which sends the whole message to protobuf-c. */
static Perfetto__Protos__InternedData *
gen_interned (Gen *g)
{
  Perfetto__Protos__InternedData *d = gen_alloc (g, sizeof *d);

  perfetto__protos__interned_data__init (d);
  d->event_categories = (Perfetto__Protos__EventCategory **) gen_named (
      g, &d->n_event_categories, (void (*) (gpointer)) perfetto__protos__event_category__init);
  d->event_names = (Perfetto__Protos__EventName **) gen_named (g, &d->n_event_names,
                                                               (void (*) (gpointer)) perfetto__protos__event_name__init);
  d->debug_annotation_names = (Perfetto__Protos__DebugAnnotationName **) gen_named (
      g, &d->n_debug_annotation_names, (void (*) (gpointer)) perfetto__protos__debug_annotation_name__init);
  d->function_names = gen_strings (g, &d->n_function_names);
  d->mapping_paths = gen_strings (g, &d->n_mapping_paths);
  d->kernel_symbols = gen_strings (g, &d->n_kernel_symbols);
  d->debug_annotation_string_values = gen_strings (g, &d->n_debug_annotation_string_values);
  if (chance (g, 10))
    {
      Perfetto__Protos__Frame *f = gen_alloc (g, sizeof *f);

      perfetto__protos__frame__init (f);
      f->has_iid = TRUE;
      f->iid = gen_u64 (g);
      d->n_frames = 1;
      d->frames = gen_alloc (g, sizeof (gpointer));
      d->frames[0] = f;
    }
  return d;
}

static void
gen_packet_fields (Gen *g,
                   PerfettoPacket *pkt)
{
  Perfetto__Protos__TracePacketDefaults *defaults;

  pkt->has_timestamp = chance (g, 90);
  pkt->timestamp = gen_u64 (g);
  pkt->has_timestamp_clock_id = chance (g, 10);
  pkt->timestamp_clock_id = (guint32) gen_u64 (g);
  pkt->has_trusted_packet_sequence_id = chance (g, 90);
  pkt->trusted_packet_sequence_id = (guint32) gen_u64 (g);
  pkt->has_trusted_pid = chance (g, 10);
  pkt->trusted_pid = gen_i32 (g);
  pkt->has_sequence_flags = chance (g, 50);
  pkt->sequence_flags = (guint32) gen_u64 (g);
  pkt->has_incremental_state_cleared = chance (g, 5);
  pkt->incremental_state_cleared = chance (g, 50);
  pkt->has_previous_packet_dropped = chance (g, 5);
  pkt->previous_packet_dropped = (guint32) gen_u64 (g);
  pkt->has_first_packet_on_sequence = chance (g, 5);
  pkt->first_packet_on_sequence = chance (g, 50);
  if (chance (g, 25))
    pkt->interned_data = gen_interned (g);
  if (chance (g, 5))
    {
      defaults = gen_alloc (g, sizeof *defaults);
      perfetto__protos__trace_packet_defaults__init (defaults);
      defaults->has_timestamp_clock_id = TRUE;
      defaults->timestamp_clock_id = (guint32) gen_u64 (g);
      pkt->trace_packet_defaults = defaults;
    }
}

/* The writer hands a TrackEvent's debug annotations to the wire writer
 * already in wire format (perfetto-writer-args.c): each of @te's, packed
 * by protobuf-c as field 4 of TrackEvent, into @out. */
static void
annotations_to_wire (const PerfettoTrackEvent *te,
                     GByteArray *out)
{
  for (gsize i = 0; i < te->n_debug_annotations; i++)
    {
      const ProtobufCMessage *da = &te->debug_annotations[i]->base;
      gsize n = protobuf_c_message_get_packed_size (da);
      guint8 head[11] = { (4 << 3) | 2 };
      guint h = 1;
      gsize v = n;

      while (v >= 0x80)
        {
          head[h++] = (guint8) (v | 0x80);
          v >>= 7;
        }
      head[h++] = (guint8) v;
      g_byte_array_append (out, head, h);
      g_byte_array_set_size (out, out->len + n);
      protobuf_c_message_pack (da, out->data + out->len - n);
    }
}

/* Packs @pkt both ways, appending to @stream, and compares the records. */
static void
check_packet (PerfettoWireBuf *stream,
              const PerfettoPacket *pkt,
              gboolean expect_streamed)
{
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  PerfettoPacket *ptr = (PerfettoPacket *) pkt;
  PerfettoTrackEvent *te = pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT ? pkt->track_event : NULL;
  g_autoptr (GByteArray) wire_annotations = g_byte_array_new ();
  PerfettoWireBuf annotations = { NULL, 0, 0 };
  gsize size, start = stream->len, n_annotations = 0;
  guint8 *expected;
  gboolean was_streamed;

  trace.n_packet = 1;
  trace.packet = &ptr;
  size = perfetto__protos__trace__get_packed_size (&trace);
  expected = g_malloc (size);
  g_assert_cmpuint (perfetto__protos__trace__pack (&trace, expected), ==, size);
  if (te != NULL)
    {
      annotations_to_wire (te, wire_annotations);
      annotations.data = wire_annotations->data;
      annotations.len = annotations.cap = wire_annotations->len;
      n_annotations = te->n_debug_annotations;
      te->n_debug_annotations = 0;
    }
  was_streamed = perfetto_wire_append_record (stream, pkt, &annotations);
  if (te != NULL)
    te->n_debug_annotations += n_annotations;
  g_assert_cmpint (was_streamed, ==, expect_streamed);
  g_assert_cmpmem (stream->data + start, stream->len - start, expected, size);
  g_free (expected);
}

static void
test_same_bytes (void)
{
  Gen g = { g_rand_new_with_seed (SEED), g_ptr_array_new_with_free_func (g_free), NULL };
  PerfettoWireBuf stream = { NULL, 0, 0 };
  Perfetto__Protos__ClockSnapshot snap = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
  guint counts[3] = { 0 };

  g.long_string = g_malloc (20001);
  for (guint i = 0; i < 20000; i++)
    g.long_string[i] = 'a' + i % 26;
  g.long_string[20000] = '\0';
  for (guint i = 0; i < N_PACKETS; i++)
    {
      PerfettoPacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
      guint kind = g_rand_int_range (g.rand, 0, 10);

      gen_packet_fields (&g, &pkt);
      if (kind < 5)
        {
          pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
          pkt.track_event = kind < 3 ? gen_hot_track_event (&g) : gen_track_event (&g);
        }
      else if (kind < 8)
        {
          pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
          pkt.ftrace_events = gen_bundle (&g);
        }
      else if (kind == 8)
        {
          pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
          pkt.clock_snapshot = &snap;
        }
      counts[kind < 5 ? 0 : kind < 8 ? 1
                                     : 2]++;
      check_packet (&stream, &pkt, kind < 8);
      g_ptr_array_set_size (g.mem, 0);
      /* start over now and then, so that growing from empty is seen too */
      if (stream.len > 8 * 1024 * 1024)
        {
          g_clear_pointer (&stream.data, g_free);
          stream.len = stream.cap = 0;
        }
    }
  g_test_message ("%u TrackEvent, %u ftrace bundle, %u other packets", counts[0], counts[1], counts[2]);
  g_free (stream.data);
  g_free (g.long_string);
  g_ptr_array_unref (g.mem);
  g_rand_free (g.rand);
}

static void
test_schema (void)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (perfetto_wire_check_schema (&error));
  g_assert_no_error (error);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/wire/schema", test_schema);
  g_test_add_func ("/perfetto/wire/same-bytes", test_same_bytes);
  return g_test_run ();
}
