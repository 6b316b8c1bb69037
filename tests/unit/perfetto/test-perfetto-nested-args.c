/* Unit test: JSON args with nested objects and arrays (dotted keys in
 * the event model) written by the Perfetto writer as nested debug
 * annotations (dict_entries, array_values), which the Perfetto reader
 * reads back to the same dotted keys and values (issue 20). */
#include "perfetto-test-util.h"
#include "trace.pb-c.h"

#include "json-private.h"

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
read_json (TraceStringPool *pool)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (nested_json, -1, NULL);
  g_autoptr (ChromeReader) r = chrome_reader_new (in, "nested.json", pool);
  g_autoptr (GError) error = NULL;
  TraceBatch *all = trace_batch_new (pool, 0);
  TraceBatch *b = NULL;

  /* as perfetto-sink is given them: without the value-less args */
  while (chrome_reader_read_batch (r, &b, &error) && b != NULL)
    {
      g_autoptr (TraceBatch) shaped = trace_batch_drop_shape_args (b);

      for (guint i = 0; i < shaped->n_events; i++)
        trace_batch_append_event (all, &shaped->events[i], shaped);
    }
  g_assert_no_error (error);
  return all;
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

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/nested-args/interned", test_interned);
  g_test_add_func ("/perfetto/nested-args/not-interned", test_not_interned);
  return g_test_run ();
}
