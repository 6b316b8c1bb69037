/* tracepipe tests - times and property values from text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <trace/trace.h>

typedef struct
{
  const char *text;
  gboolean ok;
  gint64 nanoseconds;
} TimeCase;

static const TimeCase time_cases[] = {
  { "250", TRUE, 250 },
  { "0", TRUE, 0 },
  { "5ns", TRUE, 5 },
  { "5us", TRUE, 5000 },
  { "5\xc2\xb5s", TRUE, 5000 },
  { "5ms", TRUE, 5000000 },
  { "1.5s", TRUE, 1500000000 },
  { "0.1s", TRUE, 100000000 },
  { ".5ms", TRUE, 500000 },
  { "2min", TRUE, G_GINT64_CONSTANT (120000000000) },
  { "1h", TRUE, G_GINT64_CONSTANT (3600000000000) },
  { "-20us", TRUE, -20000 },
  { "+3s", TRUE, 3000000000 },
  { "1.0000000019s", TRUE, 1000000001 }, /* below a nanosecond is dropped */
  { "9223372036854775807", TRUE, G_MAXINT64 },
  { "-9223372036854775807", TRUE, -G_MAXINT64 },
  { "9223372036854775808", FALSE, 0 },
  { "2562048h", FALSE, 0 }, /* more than 2^63 ns */
  { "", FALSE, 0 },
  { "ms", FALSE, 0 },
  { "-", FALSE, 0 },
  { "5 ms", FALSE, 0 },
  { "5sec", FALSE, 0 },
  { "5m", FALSE, 0 },
  { "1e3", FALSE, 0 },
  { "1.2.3s", FALSE, 0 },
};

static void
test_parse_time (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (time_cases); i++)
    {
      const TimeCase *c = &time_cases[i];
      g_autoptr (GError) error = NULL;
      gint64 ns = -12345;
      gboolean ok = trace_parse_time (c->text, &ns, &error);

      g_test_message ("time \"%s\"", c->text);
      g_assert_cmpint (ok, ==, c->ok);
      if (c->ok)
        {
          g_assert_no_error (error);
          g_assert_cmpint (ns, ==, c->nanoseconds);
        }
      else
        g_assert_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE);
    }
}

static void
test_parse_time_message (void)
{
  g_autoptr (GError) error = NULL;
  gint64 ns;

  g_assert_false (trace_parse_time ("soon", &ns, &error));
  g_assert_cmpstr (error->message, ==,
                   "\"soon\" is not a time (a number with a unit: ns, us, ms, s, min or h, such as 5ms or 1.5s; "
                   "a number alone is in nanoseconds)");
}

/* A pspec marked as a time, as an element marks one in class_init. */
static GParamSpec *
time_pspec (GParamSpec *pspec)
{
  trace_param_spec_set_time (pspec);
  return pspec;
}

typedef struct
{
  GParamSpec *pspec;
  const char *expected;
} DescribeCase;

static void
test_describe (void)
{
  GParamFlags f = G_PARAM_READWRITE;
  DescribeCase cases[] = {
    { g_param_spec_int ("a", NULL, NULL, G_MININT, G_MAXINT, 0, f), "an integer" },
    { g_param_spec_int ("a", NULL, NULL, -1, G_MAXINT, 0, f), "an integer of at least -1" },
    { g_param_spec_uint ("a", NULL, NULL, 0, G_MAXUINT, 0, f), "a non-negative integer" },
    { g_param_spec_uint ("a", NULL, NULL, 1, 64, 1, f), "an integer from 1 to 64" },
    { g_param_spec_int64 ("a", NULL, NULL, G_MININT64, G_MAXINT64, 0, f), "a 64-bit integer" },
    { g_param_spec_uint64 ("a", NULL, NULL, 0, G_MAXUINT64, 0, f), "a non-negative 64-bit integer" },
    { g_param_spec_double ("a", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, f), "a number" },
    { g_param_spec_double ("a", NULL, NULL, 0.5, 2.0, 1, f), "a number from 0.5 to 2" },
    { g_param_spec_boolean ("a", NULL, NULL, FALSE, f), "a boolean: true or false, yes or no, 1 or 0" },
    { g_param_spec_string ("a", NULL, NULL, NULL, f), "a string" },
    { time_pspec (g_param_spec_int64 ("a", NULL, "Window start in nanoseconds", G_MININT64, G_MAXINT64, 0, f)),
      "a time such as 5ms, 1.5s or 200us; a number alone is in nanoseconds" },
    { time_pspec (g_param_spec_uint64 ("a", NULL, "Duration (ns)", 0, G_MAXUINT64, 0, f)),
      "a time such as 5ms, 1.5s or 200us; a number alone is in nanoseconds, not negative" },
    { time_pspec (g_param_spec_int64 ("a", NULL, "Keep from this time on (ns; 1.5s, 200ms)", G_MININT64, G_MAXINT64, 0, f)),
      "a time such as 5ms, 1.5s or 200us; a number alone is in nanoseconds" },
    { g_param_spec_int64 ("a", NULL, "Snapshots (nsec)", G_MININT64, G_MAXINT64, 0, f), "a 64-bit integer" },
    { time_pspec (g_param_spec_int64 ("a", NULL, "Gap in nanoseconds", 0, 1000000000, 0, f)),
      "a time such as 5ms, 1.5s or 200us; a number alone is in nanoseconds, from 0 to 1000000000 ns" },
    { g_param_spec_pointer ("a", NULL, NULL, f), "a value of type gpointer, which cannot be given as text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = trace_describe_param_type (cases[i].pspec);

      g_assert_cmpstr (text, ==, cases[i].expected);
      g_param_spec_unref (g_param_spec_ref_sink (cases[i].pspec));
    }
}

static void
test_value_from_string (void)
{
  GParamSpec *gap = g_param_spec_ref_sink (time_pspec (g_param_spec_uint64 ("gap", NULL, "Gap in nanoseconds", 10,
                                                                            1000000000, 10, G_PARAM_READWRITE)));
  GParamSpec *count = g_param_spec_ref_sink (g_param_spec_uint64 ("count", NULL, "How many", 0, G_MAXUINT64, 0,
                                                                  G_PARAM_READWRITE));
  g_auto (GValue) value = G_VALUE_INIT;
  g_autoptr (GError) error = NULL;

  /* a value already holding the type is accepted */
  g_value_init (&value, G_TYPE_UINT64);
  g_assert_true (trace_value_from_string (gap, "1s", &value, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_value_get_uint64 (&value), ==, 1000000000);
  /* the range applies to times too */
  g_assert_false (trace_value_from_string (gap, "2s", &value, &error));
  g_assert_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE);
  g_clear_error (&error);
  g_assert_false (trace_value_from_string (gap, "-1ms", &value, &error));
  g_clear_error (&error);
  /* a property not in nanoseconds takes no units */
  g_assert_false (trace_value_from_string (count, "5ms", &value, &error));
  g_assert_cmpstr (error->message, ==, "\"5ms\" is not a valid value for \"count\" (a non-negative 64-bit integer)");
  g_param_spec_unref (gap);
  g_param_spec_unref (count);
}

void add_value_tests (void);

void
add_value_tests (void)
{
  g_test_add_func ("/value/parse-time", test_parse_time);
  g_test_add_func ("/value/parse-time-message", test_parse_time_message);
  g_test_add_func ("/value/describe", test_describe);
  g_test_add_func ("/value/from-string", test_value_from_string);
}
