/* Unit test: JSON args with nested objects and arrays (dotted keys in
 * the event model) written by the Perfetto writer as nested debug
 * annotations (dict_entries, array_values), which the Perfetto reader
 * reads back to the same dotted keys and values; written straight to
 * wire format, the same bytes as protobuf-c packs. */
#include "perfetto-test-util.h"
#include "trace.pb-c.h"

#include "json-reader.h"

static const char nested_json[] =
    "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":5,\"pid\":1,\"tid\":1,\"args\":"
    "{\"p\":1,\"obj\":{\"x\":1,\"y\":[2,3],\"z\":{\"w\":\"s\",\"v\":[[1,2],[3]]}},"
    "\"arr\":[{\"a\":1,\"b\":2.5},{\"a\":true}],\"q\":\"t\",\"k.dot\":5}},"
    "{\"ph\":\"i\",\"name\":\"g\",\"ts\":2,\"pid\":1,\"tid\":1,\"s\":\"t\",\"args\":{\"y\":[1,null,3]}}]";

/* The args of the slice, as pt_event_strings() writes them */
static const char nested_args[] =
    " p=i:1 obj.x=i:1 obj.y[0]=i:2 obj.y[1]=i:3 obj.z.w=s:'s' obj.z.v[0][0]=i:1"
    " obj.z.v[0][1]=i:2 obj.z.v[1][0]=i:3 arr[0].a=i:1 arr[0].b=d:2.5 arr[1].a=b:1 q=s:'t' k.dot=i:5";

static TraceBatch *
read_json_text (TraceStringPool *pool,
                const char *json)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (json, -1, NULL);
  g_autoptr (ChromeReader) r = chrome_reader_new (in, "nested.json", pool);
  g_autoptr (GError) error = NULL;
  TraceBatch *all = trace_batch_new (pool, 0);
  TraceBatch *b = NULL;

  /* as perfetto-sink is given them: with the value-less args (the null
   * of "y"), which the writer passes over */
  while (chrome_reader_read_batch (r, &b, &error) && b != NULL)
    {
      for (guint i = 0; i < b->n_events; i++)
        trace_batch_append_event (all, &b->events[i], b);
      trace_batch_unref (b);
    }
  g_assert_no_error (error);
  return all;
}

static TraceBatch *
read_json (TraceStringPool *pool)
{
  return read_json_text (pool, nested_json);
}

static const TraceEvent *
find_event (TraceBatch *batch,
            TraceEventKind kind)
{
  for (guint i = 0; i < batch->n_events; i++)
    if (batch->events[i].kind == kind)
      return &batch->events[i];
  g_assert_not_reached ();
}

/* The annotations of the slice's TrackEvent are a tree, not dotted names. */
static void
assert_tree (GBytes *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack (NULL, len, data);
  const Perfetto__Protos__TrackEvent *te = NULL;
  PerfettoAnnotation *obj, *arr;

  g_assert_nonnull (trace);
  for (gsize i = 0; i < trace->n_packet && te == NULL; i++)
    if (trace->packet[i]->track_event && trace->packet[i]->track_event->n_debug_annotations == 5)
      te = trace->packet[i]->track_event;
  g_assert_nonnull (te); /* p obj arr q k */
  obj = te->debug_annotations[1];
  g_assert_cmpuint (obj->n_dict_entries, ==, 3);
  g_assert_cmpuint (obj->dict_entries[1]->n_array_values, ==, 2);
  g_assert_cmpint (obj->dict_entries[1]->array_values[1]->int_value, ==, 3);
  g_assert_cmpuint (obj->dict_entries[2]->n_dict_entries, ==, 2);
  g_assert_cmpuint (obj->dict_entries[2]->dict_entries[1]->n_array_values, ==, 2);
  g_assert_cmpuint (obj->dict_entries[2]->dict_entries[1]->array_values[0]->n_array_values, ==, 2);
  arr = te->debug_annotations[2];
  g_assert_cmpuint (arr->n_array_values, ==, 2);
  g_assert_cmpuint (arr->array_values[0]->n_dict_entries, ==, 2);
  g_assert_cmpuint (arr->array_values[1]->n_dict_entries, ==, 1);
  g_assert_cmpuint (te->debug_annotations[4]->n_dict_entries, ==, 1);
  /* "q":"t", a value json-src saw once, is written where it is used, not
   * interned: the writer keeps nothing of it */
  g_assert_cmpint (te->debug_annotations[3]->value_case, ==, PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE);
  g_assert_cmpstr (te->debug_annotations[3]->string_value, ==, "t");
  perfetto__protos__trace__free_unpacked (trace, NULL);
}

static void
round_trip (gboolean intern)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = read_json (pool);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *slice = NULL;
  g_autofree char *instant = NULL;
  PerfettoWriterOptions opts;

  perfetto_writer_options_init (&opts);
  opts.intern = intern;
  bytes = pt_write (&in, 1, &opts, NULL);
  assert_tree (bytes);
  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  slice = pt_event_string (out, find_event (out, TRACE_EVENT_SLICE_BEGIN));
  g_assert_true (g_str_has_suffix (slice, nested_args));
  /* The null is not given to the sink (its index stays a gap, y[2]):
   * array elements are numbered by position as trace_processor numbers
   * them, for the JSON too (args.y[1] = 3). */
  instant = pt_event_string (out, find_event (out, TRACE_EVENT_INSTANT));
  g_assert_true (g_str_has_suffix (instant, " y[0]=i:1 y[1]=i:3"));
}

static void
test_interned (void)
{
  round_trip (TRUE);
}

static void
test_not_interned (void)
{
  round_trip (FALSE);
}

/* ---- streamed args: the bytes protobuf-c packs ---- */

/* Keys of every shape perfetto-writer-args.c tells apart: plain, nested
 * objects and arrays sharing prefixes or not, a name used both as an
 * object and an array, keys that do not parse (written flat), deeper
 * than the node stack. */
static const char *const arg_keys[] = {
  "p",
  "q",
  "obj",
  "obj.x",
  "obj.y[0]",
  "obj.y[1]",
  "obj.z.w",
  "obj.z.v[0][0]",
  "obj.z.v[0][1]",
  "obj.z.v[1][0]",
  "arr[0].a",
  "arr[0].b",
  "arr[1].a",
  "arr[1]",
  "k.dot",
  "data.frame",
  "data.initiator.url",
  "data.initiator.lineNumber",
  "data.initiator[0]",
  "a..b",
  "a[",
  "a[x]",
  "[0]",
  "a.",
  ".a",
  "a[0",
  "a[0]x",
  "x[123456789]",
  "x[0].y",
  "x[0]",
  "d.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q",
  "d.a.b.c.d.e.f.g.h.i.j.k.l.m.n",
};

static void
add_random_arg (TraceBatch *b,
                TraceEvent *ev,
                GRand *rand,
                const char *long_text)
{
  guint32 key = pt_str (b, arg_keys[g_rand_int_range (rand, 0, G_N_ELEMENTS (arg_keys))]);
  TraceArgType type = g_rand_int_range (rand, TRACE_ARG_INT, TRACE_ARG_POINTER + 1);
  /* short and long strings: one-, two- and three-byte lengths */
  gsize lens[] = { 0, 1, 5, 120, 200, 20000 };
  gsize len = lens[g_rand_int_range (rand, 0, G_N_ELEMENTS (lens))] + g_rand_int_range (rand, 0, 3);
  TraceArg *arg;

  /* half of the strings kept in the batch, as json-src keeps new values */
  if (type == TRACE_ARG_STRING && g_rand_boolean (rand))
    {
      trace_batch_add_arg_text (b, ev, key, long_text, len);
      return;
    }
  arg = trace_batch_add_arg (b, ev, key, type);

  switch (type)
    {
    case TRACE_ARG_INT:
      arg->v.i = g_rand_boolean (rand) ? -g_rand_int (rand) : ((gint64) g_rand_int (rand) << 20);
      break;
    case TRACE_ARG_UINT:
    case TRACE_ARG_POINTER:
      arg->v.u = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      break;
    case TRACE_ARG_DOUBLE:
      arg->v.d = g_rand_double_range (rand, -1e9, 1e9);
      break;
    case TRACE_ARG_BOOL:
      arg->v.b = g_rand_boolean (rand);
      break;
    default:
      arg->v.s = trace_string_pool_intern_len (b->pool, long_text, len);
      break;
    }
}

/* Slices, instants and async steps (whose step name is an annotation
 * pushed after the args) of a few threads, 0 to 40 random args each. */
static TraceBatch *
random_args_batch (TraceStringPool *pool,
                   GRand *rand)
{
  static const TraceEventKind kinds[] = {
    TRACE_EVENT_SLICE_BEGIN,
    TRACE_EVENT_SLICE_END,
    TRACE_EVENT_SLICE_COMPLETE,
    TRACE_EVENT_INSTANT,
    TRACE_EVENT_ASYNC_BEGIN,
    TRACE_EVENT_ASYNC_STEP,
    TRACE_EVENT_ASYNC_END,
  };
  g_autofree char *long_text = g_malloc (20003);
  TraceBatch *b = trace_batch_new (pool, 0);

  for (gsize i = 0; i < 20002; i++)
    long_text[i] = 'a' + i % 26;
  long_text[20002] = '\0';
  for (int i = 0; i < 3000; i++)
    {
      TraceEventKind kind = kinds[g_rand_int_range (rand, 0, G_N_ELEMENTS (kinds))];
      TraceEvent *ev = pt_add (b, kind, 1000 + i * 10, 1, 1 + i % 3, g_rand_boolean (rand) ? "s" : "t");
      int n_args = g_rand_int_range (rand, 0, 4) == 0 ? g_rand_int_range (rand, 0, 41) : g_rand_int_range (rand, 0, 4);

      ev->category = pt_str (b, "cat");
      if (kind == TRACE_EVENT_SLICE_COMPLETE)
        ev->u.slice.dur = 5;
      if (kind >= TRACE_EVENT_ASYNC_BEGIN && kind <= TRACE_EVENT_ASYNC_END)
        {
          ev->u.async.id = 7;
          ev->u.async.step = kind == TRACE_EVENT_ASYNC_STEP ? pt_str (b, "step") : 0;
        }
      for (int k = 0; k < n_args; k++)
        add_random_arg (b, ev, rand, long_text);
    }
  return b;
}

/* The bytes the wire writer gives are protobuf-c's: unpacked by
 * protobuf-c and packed again, the file is the same. */
static void
assert_protobuf_c_bytes (GBytes *file)
{
  gsize len, size;
  const guint8 *data = g_bytes_get_data (file, &len);
  Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack (NULL, len, data);
  g_autofree guint8 *packed = NULL;

  g_assert_nonnull (trace);
  size = perfetto__protos__trace__get_packed_size (trace);
  packed = g_malloc (size);
  perfetto__protos__trace__pack (trace, packed);
  g_assert_cmpmem (packed, size, data, len);
  perfetto__protos__trace__free_unpacked (trace, NULL);
}

/* Interned or not, with the interning state cleared now and then: the
 * bytes protobuf-c packs. */
static void
test_protobuf_c_bytes (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (19);

  for (int round = 0; round < 4; round++)
    {
      g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
      g_autoptr (TraceBatch) json = read_json (pool);
      g_autoptr (TraceBatch) random = random_args_batch (pool, rand);
      TraceBatch *batches[] = { json, random };
      g_autoptr (GBytes) written = NULL;
      PerfettoWriterOptions opts;

      perfetto_writer_options_init (&opts);
      opts.intern = round % 2 == 0;
      opts.max_interned = round < 2 ? 0 : 50;
      written = pt_write (batches, 2, &opts, NULL);
      g_assert_cmpuint (g_bytes_get_size (written), >, 100000);
      assert_protobuf_c_bytes (written);
    }
}

/* A packet carried through JSON (perfetto-src ! json-sink writes one as
 * a "perfetto_packet_" metadata event) is written back with a null arg
 * beside its two: perfetto-sink, given the value-less args, passes over
 * them when it counts and finds the record's args. */
static void
test_record_with_null_arg (void)
{
  static const char json[] = "[{\"ph\":\"M\",\"name\":\"perfetto_packet_x\",\"ts\":5,\"pid\":1,\"tid\":1,"
                             "\"args\":{\"perfetto\":{\"field\":9999,\"bytes\":\"AkFC\"},\"note\":null}}]";
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = read_json_text (pool, json);
  g_autoptr (GBytes) bytes = NULL;
  Perfetto__Protos__Trace *trace;
  PerfettoWriterOptions opts;
  guint carried = 0;
  gsize len;
  const guint8 *data;

  g_assert_cmpuint (in->n_events, ==, 1);
  g_assert_cmpuint (in->events[0].n_args, ==, 3);
  perfetto_writer_options_init (&opts);
  bytes = pt_write (&in, 1, &opts, NULL);
  data = g_bytes_get_data (bytes, &len);
  trace = perfetto__protos__trace__unpack (NULL, len, data);
  g_assert_nonnull (trace);
  for (gsize i = 0; i < trace->n_packet; i++)
    for (unsigned u = 0; u < trace->packet[i]->base.n_unknown_fields; u++)
      if (trace->packet[i]->base.unknown_fields[u].tag == 9999)
        {
          g_assert_cmpuint (trace->packet[i]->base.unknown_fields[u].len, ==, 3);
          carried++;
        }
  g_assert_cmpuint (carried, ==, 1);
  perfetto__protos__trace__free_unpacked (trace, NULL);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/nested-args/interned", test_interned);
  g_test_add_func ("/perfetto/nested-args/not-interned", test_not_interned);
  g_test_add_func ("/perfetto/nested-args/protobuf-c-bytes", test_protobuf_c_bytes);
  g_test_add_func ("/perfetto/nested-args/record-with-null-arg", test_record_with_null_arg);
  return g_test_run ();
}
