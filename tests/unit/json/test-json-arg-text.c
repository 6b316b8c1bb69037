/* json plugin tests: string arg values seen once are kept in the batch,
 * not interned, so the string pool does not grow with the input */
#include <string.h>

#include "json-test-util.h"

/* A trace of @n instants whose arg "id" takes the values @values[i % n_values]
 * ("%u" in a value is the event's index). */
static char *
trace_with_values (guint n,
                   const char *const *values,
                   guint n_values)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *value = g_strdup_printf (values[i % n_values], i);

      g_string_append_printf (s, "%s{\"ph\":\"i\",\"name\":\"e\",\"ts\":%u,\"pid\":1,\"tid\":1,\"args\":{\"id\":\"%s\"}}",
                              i ? "," : "", i, value);
    }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static TraceBatch *
read_trace (const char *text,
            TraceStringPool *pool)
{
  g_autoptr (GError) error = NULL;
  ChromeReader *reader = NULL;
  TraceBatch *batch = test_read_data (text, -1, "t.json", pool, &reader, &error);

  g_assert_no_error (error);
  chrome_reader_free (reader);
  return batch;
}

/* The first sighting of a value is text; from the second on, interned. */
static void
test_second_sighting_interned (void)
{
  static const char *const values[] = { "frame-A", "frame-B", "frame-A", "frame-A", "t\\u00e9" };
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autofree char *text = trace_with_values (5, values, G_N_ELEMENTS (values));
  g_autoptr (TraceBatch) batch = read_trace (text, pool);
  const TraceArgType want[] = { TRACE_ARG_TEXT, TRACE_ARG_TEXT, TRACE_ARG_STRING, TRACE_ARG_STRING, TRACE_ARG_TEXT };
  const char *want_value[] = { "frame-A", "frame-B", "frame-A", "frame-A", "té" };

  g_assert_cmpuint (batch->n_events, ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      const TraceArg *arg = test_arg (batch, &batch->events[i], "id");

      g_assert_cmpint (arg->type, ==, want[i]);
      g_assert_cmpstr (test_arg_str (batch, &batch->events[i], "id"), ==, want_value[i]);
    }
  /* a value interned later is the same string as one interned before */
  g_assert_cmpuint (test_arg (batch, &batch->events[2], "id")->v.s, ==,
                    test_arg (batch, &batch->events[3], "id")->v.s);
}

/* Values seen once (request and frame ids) leave the pool as it was:
 * what the pool holds no longer grows with the input. */
static void
test_unique_values_not_interned (void)
{
  static const char *const unique[] = { "request-%u" };
  static const char *const repeated[] = { "GET", "POST" };
  g_autoptr (TraceStringPool) pool_small = trace_string_pool_new ();
  g_autoptr (TraceStringPool) pool_large = trace_string_pool_new ();
  g_autoptr (TraceStringPool) pool_repeated = trace_string_pool_new ();
  g_autofree char *small = trace_with_values (10, unique, 1);
  g_autofree char *large = trace_with_values (20000, unique, 1);
  g_autofree char *text_repeated = trace_with_values (20000, repeated, 2);
  g_autoptr (TraceBatch) b_small = read_trace (small, pool_small);
  g_autoptr (TraceBatch) b_large = read_trace (large, pool_large);
  g_autoptr (TraceBatch) b_repeated = read_trace (text_repeated, pool_repeated);

  g_assert_cmpuint (b_large->n_events, ==, 20000);
  g_assert_cmpstr (test_arg_str (b_large, &b_large->events[19999], "id"), ==, "request-19999");
  g_assert_cmpuint (trace_string_pool_get_size (pool_large), ==, trace_string_pool_get_size (pool_small));
  /* repeated values are interned once each, and cost no text */
  g_assert_cmpuint (trace_string_pool_get_size (pool_repeated), ==, trace_string_pool_get_size (pool_small) + 2);
  g_assert_cmpuint (b_repeated->text_len, ==, strlen ("GET") + strlen ("POST") + 2);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/arg-text/second-sighting-interned", test_second_sighting_interned);
  g_test_add_func ("/json/arg-text/unique-values-not-interned", test_unique_values_not_interned);
  return g_test_run ();
}
