/* Unit tests: string args kept in their batch (TRACE_ARG_TEXT) */
#include <string.h>

#include <trace/check/traceharness.h>
#include <trace/trace.h>

#include "../test-util.h"

/* A batch of @n instants, each with one text arg "v" = "value-<i>". */
static TraceBatch *
batch_with_texts (TraceStringPool *pool,
                  guint n)
{
  TraceBatch *batch = trace_batch_new (pool, 0);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *value = g_strdup_printf ("value-%u", i);

      test_add_arg_text (batch, trace_batch_append (batch, TRACE_EVENT_INSTANT, i), "v", value);
    }
  return batch;
}

/* Every event's args as "key=value" ("key:T=value" for a text arg). */
static char *
describe_args (TraceBatch *batch)
{
  GString *s = g_string_new (NULL);

  for (guint e = 0; e < batch->n_events; e++)
    {
      const TraceEvent *ev = &batch->events[e];

      for (guint a = 0; a < ev->n_args; a++)
        {
          const TraceArg *arg = &batch->args[ev->first_arg + a];

          g_string_append_printf (s, "%s%s%s=%s", s->len ? " " : "", trace_string_pool_get (batch->pool, arg->key),
                                  arg->type == TRACE_ARG_TEXT ? ":T" : "", trace_batch_get_arg_string (batch, arg));
        }
    }
  return g_string_free (s, FALSE);
}

static void
test_add_and_read (void)
{
  g_autoptr (TraceBatch) batch = trace_batch_new (NULL, 0);
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_INSTANT, 1);
  guint32 key = trace_string_pool_intern (batch->pool, "k");
  guint n_strings = trace_string_pool_get_size (batch->pool);
  const TraceArg *arg;

  /* the bytes given, not up to a NUL: a source hands a slice of its text */
  arg = trace_batch_add_arg_text (batch, ev, key, "frame-1 and more", 7);
  g_assert_cmpint (arg->type, ==, TRACE_ARG_TEXT);
  g_assert_cmpuint (arg->v.text.len, ==, 7);
  g_assert_cmpstr (trace_batch_get_arg_string (batch, arg), ==, "frame-1");
  g_assert_cmpuint (batch->text_len, ==, 8);
  /* nothing went to the pool */
  g_assert_cmpuint (trace_string_pool_get_size (batch->pool), ==, n_strings);

  /* an empty value needs no bytes: the pool's empty string */
  arg = trace_batch_add_arg_text (batch, ev, key, "", 0);
  g_assert_cmpint (arg->type, ==, TRACE_ARG_STRING);
  g_assert_cmpuint (arg->v.s, ==, 0);
  g_assert_cmpuint (batch->text_len, ==, 8);

  /* other types have no string */
  trace_batch_add_arg_int (batch, ev, "n", 3);
  g_assert_null (trace_batch_get_arg_string (batch, &batch->args[2]));
  g_assert_cmpuint (ev->n_args, ==, 3);

  trace_batch_clear (batch);
  g_assert_cmpuint (batch->text_len, ==, 0);
}

/* An event copied into another batch takes its texts along: they outlive
 * the batch they came from. */
static void
test_append_event_copies_texts (void)
{
  TraceBatch *from = batch_with_texts (NULL, 3);
  g_autoptr (TraceBatch) to = batch_with_texts (from->pool, 1);
  g_autofree char *got = NULL;

  trace_batch_append_event (to, &from->events[2], from);
  trace_batch_append_event (to, &from->events[0], from);
  trace_batch_append_event (to, &from->events[1], NULL);
  trace_batch_unref (from);
  got = describe_args (to);
  g_assert_cmpstr (got, ==, "v:T=value-0 v:T=value-2 v:T=value-0");
  g_assert_cmpuint (to->text_len, ==, 3 * strlen ("value-0") + 3);
}

/* Appending a batch's events to itself while its text grows (the source
 * bytes move with the realloc). */
static void
test_append_event_from_itself (void)
{
  g_autoptr (TraceBatch) batch = batch_with_texts (NULL, 2);
  g_autofree char *got = NULL;

  for (guint i = 0; i < 2000; i++)
    trace_batch_append_event (batch, &batch->events[i % 2], batch);
  g_assert_cmpuint (batch->n_events, ==, 2002);
  g_assert_cmpstr (trace_batch_get_arg_string (batch, &batch->args[2001]), ==, "value-1");
  g_assert_cmpstr (trace_batch_get_arg_string (batch, &batch->args[2000]), ==, "value-0");
  g_assert_cmpuint (batch->text_len, ==, 2002 * 8);
  got = describe_args (batch);
  g_assert_true (g_str_has_suffix (got, "v:T=value-0 v:T=value-1"));
}

static void
test_copy (void)
{
  g_autoptr (TraceBatch) batch = batch_with_texts (NULL, 2);
  g_autoptr (TraceBatch) copy = trace_batch_copy (batch);
  g_autofree char *got = NULL;

  batch->text[0] = 'X';
  got = describe_args (copy);
  g_assert_cmpstr (got, ==, "v:T=value-0 v:T=value-1");
}

/* A writable batch is interned in place; a shared one is copied and left
 * as it was. */
static void
test_intern_text_args (void)
{
  TraceBatch *batch = batch_with_texts (NULL, 2);
  TraceBatch *shared, *out;
  g_autofree char *got = NULL, *got_shared = NULL, *before = NULL, *after = NULL;

  out = trace_batch_intern_text_args (batch);
  g_assert_true (out == batch);
  got = describe_args (out);
  g_assert_cmpstr (got, ==, "v=value-0 v=value-1");
  g_assert_cmpuint (out->text_len, ==, 0);
  g_assert_cmpstr (trace_string_pool_get (out->pool, out->args[1].v.s), ==, "value-1");
  trace_batch_unref (out);

  batch = batch_with_texts (NULL, 2);
  shared = trace_batch_ref (batch);
  before = describe_args (shared);
  out = trace_batch_intern_text_args (batch);
  g_assert_true (out != shared);
  got_shared = describe_args (out);
  g_assert_cmpstr (got_shared, ==, "v=value-0 v=value-1");
  after = describe_args (shared);
  g_assert_cmpstr (after, ==, before);
  trace_batch_unref (out);
  trace_batch_unref (shared);
}

/* Squeezing drops the texts of the dropped events, so a store that
 * events pass through does not grow with them. */
static void
test_squeeze (void)
{
  g_autoptr (TraceBatch) batch = batch_with_texts (NULL, 4);
  guint32 remap[4] = { 99, 99, 99, 99 };
  g_autofree char *got = NULL;

  batch->events[0].kind = TRACE_EVENT_NONE;
  batch->events[2].kind = TRACE_EVENT_NONE;
  trace_batch_squeeze (batch, remap);
  g_assert_cmpuint (batch->n_events, ==, 2);
  g_assert_cmpuint (batch->n_args, ==, 2);
  g_assert_cmpuint (batch->text_len, ==, 2 * 8);
  g_assert_cmpuint (remap[1], ==, 0);
  g_assert_cmpuint (remap[3], ==, 1);
  g_assert_cmpuint (remap[0], ==, 99);
  got = describe_args (batch);
  g_assert_cmpstr (got, ==, "v:T=value-1 v:T=value-3");
  g_assert_cmpint (batch->events[1].ts, ==, 3);

  /* a store used over and over stays the size of what it holds */
  for (guint round = 0; round < 100; round++)
    {
      trace_batch_append_event (batch, &batch->events[0], batch);
      batch->events[0].kind = TRACE_EVENT_NONE;
      trace_batch_squeeze (batch, NULL);
    }
  g_assert_cmpuint (batch->n_events, ==, 2);
  g_assert_cmpuint (batch->text_len, ==, 2 * 8);
}

/* A sink that does not ask for text args gets them interned. */
static void
test_sink_gets_strings (void)
{
  g_autoptr (TraceBatch) collected = NULL;
  TraceHarness *h;
  TraceBatch *batch;
  g_autofree char *got = NULL;

  test_register_collect_sink ();
  h = trace_harness_new ("collectsink");
  collected = trace_harness_new_batch (h);
  g_object_set_data (G_OBJECT (trace_harness_get_element (h)), "collect", collected);
  g_assert_true (trace_harness_play (h));
  batch = batch_with_texts (trace_harness_get_string_pool (h), 2);
  g_assert_cmpint (trace_harness_push (h, batch), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  got = describe_args (collected);
  g_assert_cmpstr (got, ==, "v=value-0 v=value-1");
  trace_harness_free (h);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/batch/text/add-and-read", test_add_and_read);
  g_test_add_func ("/batch/text/append-event-copies-texts", test_append_event_copies_texts);
  g_test_add_func ("/batch/text/append-event-from-itself", test_append_event_from_itself);
  g_test_add_func ("/batch/text/copy", test_copy);
  g_test_add_func ("/batch/text/intern", test_intern_text_args);
  g_test_add_func ("/batch/text/squeeze", test_squeeze);
  g_test_add_func ("/batch/text/sink-gets-strings", test_sink_gets_strings);
  return g_test_run ();
}
