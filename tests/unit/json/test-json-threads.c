/* Unit tests of json-src's reader with worker threads: the batches
 * (their boundaries, every event and arg), the counters with their byte
 * offsets, the summaries, the metadata and the errors are those of the
 * single-threaded reader, on every file of tests/data/json and on
 * generated inputs, with chunks of 256 KiB and with chunks small enough
 * that every file is split (TRACEPIPE_JSON_CHUNK_SIZE). The counts of
 * chunks taken from workers and of wrong guesses show the workers were
 * used, and that a guess inside a string was seen as wrong. */
#include <string.h>

#include "../../test-util.h"
#include "json-test-util.h"

typedef struct
{
  guint64 taken, missed, stolen;
} ChunkCounts;

/* Whether the reader's thread waits for every chunk's worker, so the
 * counts of taken chunks do not depend on the machine's load. */
static gboolean patient = TRUE;

static void
describe_batch (GString *out,
                TraceBatch *b)
{
  g_string_append_printf (out, "batch %u\n", b->n_events);
  for (guint i = 0; i < b->n_events; i++)
    {
      TraceEvent ev = b->events[i];
      const char *name = ev.name ? trace_string_pool_get (b->pool, ev.name) : "";
      const char *cat = ev.category ? trace_string_pool_get (b->pool, ev.category) : "";
      guint first_arg = ev.first_arg;

      ev.name = ev.category = ev.first_arg = 0;
      g_string_append_printf (out, "%s|%s|", name, cat);
      for (guint k = 0; k < sizeof ev; k++)
        g_string_append_printf (out, "%02x", ((const guint8 *) &ev)[k]);
      for (guint a = 0; a < ev.n_args; a++)
        {
          const TraceArg *arg = &b->args[first_arg + a];

          g_string_append_printf (out, " %s:%u:", trace_string_pool_get (b->pool, arg->key), arg->type);
          if (trace_batch_get_arg_string (b, arg) != NULL)
            g_string_append (out, trace_batch_get_arg_string (b, arg));
          else
            g_string_append_printf (out, "%" G_GINT64_MODIFIER "x", arg->v.i);
        }
      g_string_append_c (out, '\n');
    }
}

/* Everything a reader run produced, as text. Each run has a pool of its
 * own: string ids are compared by their text. */
static char *
describe_run (const void *data,
              gsize len,
              guint threads,
              ChunkCounts *counts)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (data, len, NULL);
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *unsupported = NULL;
  g_autofree char *failure = NULL;
  g_autoptr (JsonNode) meta = NULL;
  g_autofree char *meta_text = NULL;
  const ChromeReaderStats *stats;
  ChromeReader *r;
  TraceBatch *b;
  gboolean ok;

  r = chrome_reader_new (in, "input.json", pool);
  chrome_reader_set_threads (r, threads);
  chrome_reader_set_patient (r, patient);
  while ((ok = chrome_reader_read_batch (r, &b, &error)) && b != NULL)
    {
      describe_batch (out, b);
      trace_batch_unref (b);
    }
  stats = chrome_reader_get_stats (r);
  summary = chrome_reader_get_summary (r, TRUE);
  unsupported = chrome_reader_get_unsupported_summary (r);
  failure = chrome_reader_get_failure (r);
  meta = json_node_init_object (json_node_alloc (), chrome_reader_get_metadata (r));
  meta_text = json_to_string (meta, FALSE);
  g_string_append_printf (out, "ok %d error %s\nsummary %s\nunsupported %s\nfailure %s\nmetadata %s\n", ok,
                          error ? error->message : "-", summary ? summary : "-", unsupported ? unsupported : "-",
                          failure ? failure : "-", meta_text);
  g_string_append_printf (out, "clock %d %s unit %s system %d %" G_GUINT64_FORMAT " bytes-read %" G_GUINT64_FORMAT "\n",
                          chrome_reader_get_clock_domain (r), chrome_reader_get_clock_domain_name (r) ?: "-",
                          chrome_reader_get_display_time_unit (r) ?: "-", chrome_reader_has_system_trace (r),
                          chrome_reader_get_system_trace_size (r), chrome_reader_get_bytes_read (r));
  g_string_append (out, "stats ");
  for (guint k = 0; k < sizeof *stats; k++)
    g_string_append_printf (out, "%02x", ((const guint8 *) stats)[k]);
  if (counts)
    chrome_reader_get_chunk_counts (r, &counts->taken, &counts->missed, &counts->stolen);
  chrome_reader_free (r);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Compares threads=2 and 5 with 1; adds up the chunk counts of both. */
static void
assert_same_as_one_thread (const void *data,
                           gsize len,
                           const char *what,
                           ChunkCounts *counts)
{
  g_autofree char *one = describe_run (data, len, 1, NULL);

  for (guint threads = 2; threads <= 5; threads += 3)
    {
      ChunkCounts c = { 0 };
      g_autofree char *many = describe_run (data, len, threads, &c);

      if (counts)
        {
          counts->taken += c.taken;
          counts->missed += c.missed;
          counts->stolen += c.stolen;
        }
      if (g_strcmp0 (one, many) != 0)
        {
          gsize at = 0;

          while (one[at] && one[at] == many[at])
            at++;
          g_test_message ("%s: threads=%u differs from threads=1 at byte %" G_GSIZE_FORMAT ": \"%.120s\" vs \"%.120s\"",
                          what, threads, at, one + MAX (at, 60) - 60, many + MAX (at, 60) - 60);
          g_test_fail ();
          return;
        }
    }
}

static void
set_chunk_size (gsize size)
{
  g_autofree char *text = g_strdup_printf ("%" G_GSIZE_FORMAT, size);

  if (size == 0)
    g_unsetenv ("TRACEPIPE_JSON_CHUNK_SIZE");
  else
    g_setenv ("TRACEPIPE_JSON_CHUNK_SIZE", text, TRUE);
}

/* A string value that holds what looks like the end of one event and
 * the start of the next, escaped quotes and all. */
static void
append_trap_string (GString *s,
                    GRand *rand,
                    guint length)
{
  static const char *const pieces[] = {
    "},{\\\"ph\\\":\\\"X\\\"",
    "}, {\\\"name\\\":\\\"fake\\\"}",
    "} ,\\n{",
    "},{}",
    "}, { }, {}",
    "\\\\",
    "\\\"}",
    "x",
  };

  g_string_append_c (s, '"');
  for (guint n = 0; n < length;)
    {
      const char *p = pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))];

      g_string_append (s, p);
      n += strlen (p);
    }
  g_string_append_c (s, '"');
}

/* ~@mb MiB of Chrome JSON: B/E/X/i/C/M/s/f/b/e events with nested args,
 * flows v2, string pids, empty objects, an element that is no object,
 * malformed events; @traps: strings holding `},{` on most events; @newlines:
 * one event per line (else all on one line). */
static GString *
generate (guint kib,
          guint32 seed,
          gboolean object_form,
          gboolean newlines,
          guint traps)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  GString *s = g_string_new (object_form ? "{\"traceEvents\":[" : "[");
  const char *sep = newlines ? ",\n" : ",";
  gint64 us = 1000;
  guint n = 0;

  g_string_append (s, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"app\"}}");
  while (s->len < kib * 1024)
    {
      guint r = g_rand_int_range (rand, 0, 100);
      gint tid = g_rand_int_range (rand, 1, 9);

      us += g_rand_int_range (rand, 0, 30);
      n++;
      g_string_append (s, sep);
      if (r < 20)
        g_string_append_printf (s, "{\"ph\":\"B\",\"name\":\"slice %u\",\"cat\":\"c%u\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":%d,\"args\":{\"a\":{\"b\":[1,2,{\"c\":\"d\"}]},\"n\":%u}}",
                                r % 7, r % 3, us, tid, n);
      else if (r < 40)
        g_string_append_printf (s, "{\"ph\":\"E\",\"ts\":%" G_GINT64_FORMAT ".%03u,\"pid\":1,\"tid\":%d}", us,
                                n % 1000, tid);
      else if (r < 55)
        g_string_append_printf (s,
                                "{ \"name\" : \"x\\u00e9\\\"q\" , \"ph\" : \"X\", \"ts\":%" G_GINT64_FORMAT
                                ", \"dur\": 3, \"tts\": 1, \"tdur\": 1, \"pid\":\"proc %d\", \"tid\":%d, "
                                "\"bind_id\":\"0x%x\", \"flow_out\": true}",
                                us, tid % 2, tid, n % 50);
      else if (r < 65)
        g_string_append_printf (s, "{\"ph\":\"C\",\"name\":\"ctr\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"args\":{\"v\":%u,\"w\":1.5e3}}",
                                us, n % 100);
      else if (r < 72)
        g_string_append_printf (s, "{\"ph\":\"%s\",\"name\":\"async\",\"cat\":\"a\",\"id2\":{\"local\":\"0x%x\"},"
                                   "\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":%d}",
                                r % 2 ? "b" : "e", n % 5, us, tid);
      else if (r < 78)
        g_string_append_printf (s, "{\"ph\":\"%s\",\"name\":\"flow\",\"id\":%u,\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":%d,\"bp\":\"e\"}",
                                r % 2 ? "s" : "f", n % 9, us, tid);
      else if (r < 78 + traps)
        {
          g_string_append_printf (s, "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"trap\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":%d,\"args\":{\"text\":",
                                  us, tid);
          append_trap_string (s, rand, g_rand_int_range (rand, 100, 1500));
          g_string_append (s, "}}");
        }
      else if (r < 99)
        g_string_append_printf (s, "{\"ph\":\"i\",\"name\":\"inst\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":%d}",
                                us, tid);
      else if (n % 5 == 0)
        g_string_append (s, "{}");
      else if (n % 5 == 1)
        g_string_append (s, "{\"ph\":\"X\",\"ts\":1,,\"pid\":1}"); /* malformed */
      else if (n % 5 == 2)
        g_string_append (s, "{\"ph\":\"X\",\"ts\":\"nope\",\"dur\":1,\"pid\":1,\"tid\":1}");
      else if (n % 5 == 3)
        g_string_append (s, "42");
      else
        g_string_append (s, "{\"ph\":\"Q\",\"ts\":1,\"pid\":1,\"tid\":1}"); /* unknown phase */
    }
  g_string_append (s, newlines ? "\n]" : "]");
  if (object_form)
    g_string_append (s, ",\"displayTimeUnit\":\"ns\",\"metadata\":{\"clock-domain\":\"BOOTTIME\",\"x\":[1,{\"a\":2}]},"
                        "\"systemTraceEvents\":\"# tracer: nop\\n  a-1 [000] .... 1.000000: "
                        "tracing_mark_write: B|1|k\\n\"}");
  g_string_append_c (s, '\n');
  return s;
}

static void
test_generated (void)
{
  static const gsize chunk_sizes[] = { 0, 4096, 777 };

  for (guint i = 0; i < G_N_ELEMENTS (chunk_sizes); i++)
    for (guint form = 0; form < 4; form++)
      {
        g_autoptr (GString) s = generate (chunk_sizes[i] ? 400 : 5 * 1024, 19 + form, form & 1, form & 2, 0);
        g_autofree char *what = g_strdup_printf ("generated, %s form, %s, chunks of %" G_GSIZE_FORMAT,
                                                 form & 1 ? "object" : "array",
                                                 form & 2 ? "one event a line" : "one line", chunk_sizes[i]);
        ChunkCounts counts = { 0 };

        set_chunk_size (chunk_sizes[i]);
        assert_same_as_one_thread (s->str, s->len, what, &counts);
        g_test_message ("%s: %" G_GUINT64_FORMAT " chunks taken, %" G_GUINT64_FORMAT " missed", what, counts.taken,
                        counts.missed);
        /* the workers did the work: not every chunk fell back */
        g_assert_cmpuint (counts.taken, >, 4);
        /* cut inside an event, and inside the last one */
        assert_same_as_one_thread (s->str, s->len * 2 / 3 + 1, "cut in the middle", NULL);
        assert_same_as_one_thread (s->str, s->len - 30, "cut in the last event", NULL);
      }
  set_chunk_size (0);
}

/* As json-src reads: the reader's thread reads a chunk no worker has
 * started yet itself instead of waiting. Which chunks that is depends on
 * the load; the output does not, and every chunk is either a worker's
 * or the reader's (none is missed: the input has no traps). */
static void
test_impatient (void)
{
  static const gsize chunk_sizes[] = { 0, 4096 };

  patient = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (chunk_sizes); i++)
    {
      gsize chunk = chunk_sizes[i] ? chunk_sizes[i] : 256 * 1024;
      g_autoptr (GString) s = generate (chunk_sizes[i] ? 400 : 5 * 1024, 7, FALSE, TRUE, 0);
      ChunkCounts counts = { 0 };

      set_chunk_size (chunk_sizes[i]);
      assert_same_as_one_thread (s->str, s->len, "impatient", &counts);
      g_test_message ("impatient, chunks of %" G_GSIZE_FORMAT ": %" G_GUINT64_FORMAT " taken, %" G_GUINT64_FORMAT
                      " read before a worker started them",
                      chunk, counts.taken, counts.stolen);
      g_assert_cmpuint (counts.missed, ==, 0);
      /* two runs (threads=2 and 5), each of all but the first read */
      g_assert_cmpuint (counts.taken + counts.stolen, >=, 2 * (s->len / chunk - 2));
    }
  set_chunk_size (0);
  patient = TRUE;
}

/* Chrome's stackTrace args are arrays of objects: `},{` inside an event.
 * A worker whose first guess falls in one sees its events end at the
 * array's ']' and guesses again after it, so every chunk is taken and
 * none is left to the reader's thread alone. */
static void
test_arrays_of_objects (void)
{
  g_autoptr (GString) s = g_string_new ("[");
  ChunkCounts counts = { 0 };

  for (guint i = 0; s->len < 256 * 1024; i++)
    g_string_append_printf (s,
                            "%s{\"ph\":\"X\",\"name\":\"f%u\",\"ts\":%u,\"dur\":1,\"pid\":1,\"tid\":1,"
                            "\"args\":{\"data\":{\"stackTrace\":[{\"line\":%u},{\"line\":2},{\"line\":3}]}}}",
                            i ? "," : "", i % 13, i, i);
  g_string_append (s, "]");
  set_chunk_size (1000);
  assert_same_as_one_thread (s->str, s->len, "arrays of objects", &counts);
  set_chunk_size (0);
  g_test_message ("arrays of objects, chunks of 1000: %" G_GUINT64_FORMAT " chunks taken, %" G_GUINT64_FORMAT
                  " missed",
                  counts.taken, counts.missed);
  g_assert_cmpuint (counts.missed, ==, 0);
  g_assert_cmpuint (counts.taken, >, 400);
}

/* Strings holding `},{`, `}, {` and escaped quotes across the chunk
 * boundaries: the guesses inside them are seen as wrong, the chunks read
 * on one thread, and the output is still the same. */
static void
test_traps (void)
{
  static const gsize chunk_sizes[] = { 0, 4096, 1000 };

  for (guint i = 0; i < G_N_ELEMENTS (chunk_sizes); i++)
    {
      g_autoptr (GString) s = generate (chunk_sizes[i] ? 600 : 4 * 1024, 5 + i, i == 1, i == 2, 6);
      ChunkCounts counts = { 0 };

      set_chunk_size (chunk_sizes[i]);
      assert_same_as_one_thread (s->str, s->len, "traps", &counts);
      g_test_message ("traps, chunks of %" G_GSIZE_FORMAT ": %" G_GUINT64_FORMAT " chunks taken, %" G_GUINT64_FORMAT
                      " missed",
                      chunk_sizes[i], counts.taken, counts.missed);
      g_assert_cmpuint (counts.missed, >, 0);
      g_assert_cmpuint (counts.taken, >, 0);
    }
  set_chunk_size (0);
}

/* Events smaller than a worker's table allows for (one per 64 bytes):
 * the worker stops at its most and the reader's thread scans the rest
 * of the chunk. */
static void
test_dense (void)
{
  g_autoptr (GString) s = g_string_new ("[");
  ChunkCounts counts = { 0 };

  for (guint i = 0; i < 40000; i++)
    g_string_append_printf (s, i % 7 ? "%s{\"ph\":\"i\",\"ts\":%u,\"pid\":1,\"tid\":1}" : "%s{}", i ? "," : "", i);
  g_string_append (s, "]");
  set_chunk_size (4096);
  assert_same_as_one_thread (s->str, s->len, "dense", &counts);
  set_chunk_size (0);
  assert_same_as_one_thread (s->str, s->len, "dense, default chunks", &counts);
  g_assert_cmpuint (counts.taken, >, 100);
}

static void
test_small_and_odd (void)
{
  static const char *const inputs[] = {
    "",
    "[",
    "[]",
    "[{}]",
    "[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"},{\"ph\":\"B\",\"ts\":2,\"pid\":1,\"tid\":1},",
    "{\"traceEvents\":[{\"ph\":\"B\",\"ts\":2,\"pid\":1,\"tid\":1}, {\"ph\":\"E\",\"ts\":3,\"pid\":1,\"tid\":1} ,"
    "{\"ph\":\"E\"]}",
    "[{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":1},{\"ph\":\"i\",\"ts\":2,\"pid\":1,\"tid\":1}]  garbage",
    "{\"nodes\":[{\"a\":1},{\"b\":2},{\"c\":3}]}",
    "[1,2,3,{\"a\":1},{\"b\":2}]",
  };

  set_chunk_size (16);
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    assert_same_as_one_thread (inputs[i], strlen (inputs[i]), inputs[i], NULL);
  set_chunk_size (0);
}

/* Every file of tests/data/json, in chunks of 256 KiB and of 1000 bytes. */
static void
test_corpus (void)
{
  g_autofree char *dir_path = g_build_filename (TEST_DATA_DIR, "json", NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  ChunkCounts counts = { 0 };
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || !g_file_get_contents (path, &contents, &len, NULL))
        continue;
      set_chunk_size (0);
      assert_same_as_one_thread (contents, len, name, NULL);
      set_chunk_size (1000);
      assert_same_as_one_thread (contents, len, name, &counts);
      n++;
    }
  set_chunk_size (0);
  g_test_message ("corpus in chunks of 1000 bytes: %" G_GUINT64_FORMAT " chunks taken, %" G_GUINT64_FORMAT " missed",
                  counts.taken, counts.missed);
  g_assert_cmpuint (n, >, 30);
  g_assert_cmpuint (counts.taken, >, 100);
}

/* With a thread lending its time, threads=2 starts no worker of its own:
 * the lender scans every chunk (the patient reader waits for it), and the
 * output is that of one thread; threads=5 adds three workers to it. */
static void
test_lent (void)
{
  g_autoptr (GString) s = generate (5 * 1024, 11, FALSE, TRUE, 0);
  TestLender *lender = test_lender_start ();
  ChunkCounts counts = { 0 };
  g_autofree char *one = NULL, *two = NULL;
  guint pieces;

  one = describe_run (s->str, s->len, 1, NULL);
  two = describe_run (s->str, s->len, 2, &counts);
  g_assert_cmpstr (two, ==, one);
  pieces = test_lender_get_pieces (lender);
  g_test_message ("lent: %" G_GUINT64_FORMAT " chunks taken, %u scanned by the lender", counts.taken, pieces);
  g_assert_cmpuint (counts.missed, ==, 0);
  g_assert_cmpuint (counts.taken, >=, s->len / (256 * 1024) - 2);
  g_assert_cmpuint (pieces, >=, counts.taken);
  assert_same_as_one_thread (s->str, s->len, "lent", NULL);
  test_lender_stop (lender);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/threads/generated", test_generated);
  g_test_add_func ("/json/threads/traps", test_traps);
  g_test_add_func ("/json/threads/arrays-of-objects", test_arrays_of_objects);
  g_test_add_func ("/json/threads/impatient", test_impatient);
  g_test_add_func ("/json/threads/lent", test_lent);
  g_test_add_func ("/json/threads/dense", test_dense);
  g_test_add_func ("/json/threads/small-and-odd", test_small_and_odd);
  g_test_add_func ("/json/threads/corpus", test_corpus);
  return g_test_run ();
}
