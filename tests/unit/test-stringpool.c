/* Unit tests: TraceStringPool */
#include <string.h>

#include <trace/trace.h>

static void
test_intern_same_id (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  guint32 a = trace_string_pool_intern (pool, "sched_switch");
  guint32 b = trace_string_pool_intern_len (pool, "sched_switch: x", 12);

  g_assert_cmpuint (a, ==, b);
  g_assert_cmpuint (a, !=, 0);
  g_assert_cmpstr (trace_string_pool_get (pool, a), ==, "sched_switch");
  g_assert_cmpuint (trace_string_pool_get_length (pool, a), ==, 12);
}

static void
test_empty_is_zero (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();

  g_assert_cmpuint (trace_string_pool_intern (pool, ""), ==, 0);
  g_assert_cmpuint (trace_string_pool_intern (pool, NULL), ==, 0);
  g_assert_cmpstr (trace_string_pool_get (pool, 0), ==, "");
  /* An id the pool never gave out reads as empty, never as garbage. */
  g_assert_cmpstr (trace_string_pool_get (pool, 12345), ==, "");
}

static void
test_many_strings_stay_put (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  const char *first;
  guint32 first_id = trace_string_pool_intern (pool, "first");

  first = trace_string_pool_get (pool, first_id);
  for (int i = 0; i < 100000; i++)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "name-%d", i);
      trace_string_pool_intern (pool, buf);
    }
  /* Growing the pool never moves a string already handed out. */
  g_assert_true (first == trace_string_pool_get (pool, first_id));
  g_assert_cmpuint (trace_string_pool_get_size (pool), ==, 100002);
  g_assert_cmpuint (trace_string_pool_lookup (pool, "name-99999", 10), !=, G_MAXUINT32);
  g_assert_cmpuint (trace_string_pool_lookup (pool, "name-100000", 11), ==, G_MAXUINT32);
}

static void
test_embedded_bytes (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  guint32 a = trace_string_pool_intern_len (pool, "ab\0cd", 5);
  guint32 b = trace_string_pool_intern_len (pool, "ab", 2);

  g_assert_cmpuint (a, !=, b);
  g_assert_cmpuint (trace_string_pool_get_length (pool, a), ==, 5);
}

static gpointer
intern_thread (gpointer data)
{
  TraceStringPool *pool = data;

  for (int i = 0; i < 20000; i++)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "t-%d", i % 5000);
      guint32 id = trace_string_pool_intern (pool, buf);
      g_assert_cmpstr (trace_string_pool_get (pool, id), ==, buf);
    }
  return NULL;
}

static void
test_threads (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  GThread *t1 = g_thread_new ("a", intern_thread, pool);
  GThread *t2 = g_thread_new ("b", intern_thread, pool);

  g_thread_join (t1);
  g_thread_join (t2);
  /* Both threads interned the same 5000 strings: no duplicates. */
  g_assert_cmpuint (trace_string_pool_get_size (pool), ==, 5001);
}

/* The hash reads words, the last one overlapping: every byte of every
 * length counts, equal bytes hash equal wherever they are, and strings
 * that differ in one byte land apart (ids never depend on it, but a
 * cache in front of the pool would thrash). */
static void
test_hash (void)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  char text[40], copy[48];
  guint collisions = 0;

  memset (text, 'a', sizeof text);
  for (gsize len = 0; len <= sizeof text; len++)
    {
      memcpy (copy + 3, text, len);
      g_assert_cmpuint (trace_string_pool_hash (text, len), ==, trace_string_pool_hash (copy + 3, len));
      for (gsize at = 0; at < len; at++)
        {
          guint32 h;

          text[at] = 'b';
          h = trace_string_pool_hash (text, len);
          text[at] = 'a';
          g_assert_cmpuint (h, !=, trace_string_pool_hash (text, len));
          collisions += !g_hash_table_add (seen, GUINT_TO_POINTER (h));
        }
    }
  /* 820 one-byte changes */
  g_assert_cmpuint (collisions, <, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stringpool/intern-same-id", test_intern_same_id);
  g_test_add_func ("/stringpool/empty-is-zero", test_empty_is_zero);
  g_test_add_func ("/stringpool/many-strings-stay-put", test_many_strings_stay_put);
  g_test_add_func ("/stringpool/embedded-bytes", test_embedded_bytes);
  g_test_add_func ("/stringpool/threads", test_threads);
  g_test_add_func ("/stringpool/hash", test_hash);
  return g_test_run ();
}
