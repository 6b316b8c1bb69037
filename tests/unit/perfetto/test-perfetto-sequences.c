/* Unit tests: the Perfetto reader's state of packet sequences, on files
 * that name millions of them (raw bytes, built here): a sequence costs
 * nothing until its packets give it state, and at most
 * PERFETTO_READER_MAX_SEQUENCES hold state at once. */
#include "perfetto-test-util.h"

#include <string.h>

#include "../../test-util.h"

static void
append_varint (GByteArray *a,
               guint64 v)
{
  do
    {
      guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (a, &b, 1);
      v >>= 7;
    }
  while (v);
}

/* A length-delimited field @number holding @value. */
static void
append_message (GByteArray *a,
                guint32 number,
                const GByteArray *value)
{
  append_varint (a, (number << 3) | 2);
  append_varint (a, value->len);
  g_byte_array_append (a, value->data, value->len);
}

/* A `Trace.packet` record: `trusted_packet_sequence_id = @seq` and, when
 * @interned, `sequence_flags = SEQ_INCREMENTAL_STATE_CLEARED` and an
 * `interned_data` naming event name iid 1 "n"; nothing else. */
static void
append_seq_packet (GByteArray *file,
                   guint32 seq,
                   gboolean interned)
{
  g_autoptr (GByteArray) packet = g_byte_array_new ();

  append_varint (packet, 10 << 3);
  append_varint (packet, seq);
  if (interned)
    {
      static const guint8 name[] = { 0x08, 0x01, 0x12, 0x01, 'n' }; /* EventName{iid: 1, name: "n"} */
      g_autoptr (GByteArray) event_name = g_byte_array_new ();
      g_autoptr (GByteArray) data = g_byte_array_new ();

      append_varint (packet, 13 << 3);
      append_varint (packet, 1);
      g_byte_array_append (event_name, name, sizeof name);
      append_message (data, 2, event_name);
      append_message (packet, 12, data);
    }
  append_message (file, 1, packet);
}

/* A record of an instant TrackEvent at @ts on sequence @seq named by
 * its interned name iid 1 (sequence_flags = SEQ_NEEDS_INCREMENTAL_STATE). */
static void
append_named_instant (GByteArray *file,
                      guint32 seq,
                      guint64 ts)
{
  static const guint8 event[] = { 0x48, 0x03, 0x50, 0x01 }; /* type: TYPE_INSTANT, name_iid: 1 */
  g_autoptr (GByteArray) packet = g_byte_array_new ();
  g_autoptr (GByteArray) te = g_byte_array_new ();

  append_varint (packet, 8 << 3);
  append_varint (packet, ts);
  append_varint (packet, 10 << 3);
  append_varint (packet, seq);
  append_varint (packet, 13 << 3);
  append_varint (packet, 2);
  g_byte_array_append (te, event, sizeof event);
  append_message (packet, 11, te);
  append_message (file, 1, packet);
}

/* @n packets, each of sequence 1, 2, … @n, interned data in each or
 * none. */
static GBytes *
sequences_bomb (guint n,
                gboolean interned)
{
  GByteArray *file = g_byte_array_new ();

  for (guint i = 1; i <= n; i++)
    append_seq_packet (file, i, interned);
  return g_byte_array_free_to_bytes (file);
}

/* A million packets that each name a sequence of their own and carry
 * nothing (6 MB; 2 M of them are 2.7 MB of gzip) are read with no state
 * kept: 32 MiB of address space to spare. Each cost a state of ten hash
 * tables before (~2.3 KB: 2.3 GB here). */
static void
test_ids_memory (void)
{
  if (g_test_subprocess ())
    {
      const guint n = 1000000;
      g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
      g_autoptr (GBytes) bytes = sequences_bomb (n, FALSE);
      g_autoptr (GError) error = NULL;
      g_autoptr (TraceBatch) out = NULL;
      PerfettoReaderStats rs;

      test_limit_address_space (32 * 1024 * 1024);
      out = pt_read (bytes, pool, &rs, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (out->n_events, ==, 0);
      g_assert_cmpuint (rs.packets, ==, n);
      g_assert_cmpuint (rs.dropped_sequences, ==, 0);
      return;
    }
#ifdef TEST_UNDER_ASAN
  g_test_skip ("AddressSanitizer cannot run under an address-space limit");
  return;
#endif
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* 200 000 sequences that each intern a name are read in the memory of
 * the 65 536 kept at once (a table of one name each): 96 MiB of address
 * space to spare. Before, every one was kept with its ten tables
 * (~2.5 KB: 500 MB here). */
static void
test_interned_memory (void)
{
  if (g_test_subprocess ())
    {
      const guint n = 200000;
      g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
      g_autoptr (GBytes) bytes = sequences_bomb (n, TRUE);
      g_autoptr (GError) error = NULL;
      g_autoptr (TraceBatch) out = NULL;
      PerfettoReaderStats rs;

      test_limit_address_space (96 * 1024 * 1024);
      out = pt_read (bytes, pool, &rs, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rs.packets, ==, n);
      g_assert_cmpuint (rs.dropped_sequences, ==, n - PERFETTO_READER_MAX_SEQUENCES);
      return;
    }
#ifdef TEST_UNDER_ASAN
  g_test_skip ("AddressSanitizer cannot run under an address-space limit");
  return;
#endif
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* Past the limit, the state of the sequence least recently used is
 * dropped (counted); its later packets that need it are skipped as
 * those of a sequence never cleared, while a sequence used again since
 * keeps its state. */
static void
test_eviction (void)
{
  const guint n = PERFETTO_READER_MAX_SEQUENCES + 2;
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GByteArray) file = g_byte_array_new ();
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GPtrArray) got = NULL;
  PerfettoReaderStats rs;

  /* sequence 1 is used again before the limit is passed: 2 and 3 are
   * the least recently used ones then */
  append_seq_packet (file, 1, TRUE);
  for (guint i = 2; i <= n - 2; i++)
    append_seq_packet (file, i, TRUE);
  append_named_instant (file, 1, 1000);
  append_seq_packet (file, n - 1, TRUE);
  append_seq_packet (file, n, TRUE);
  /* packets of no state cost none and drop none */
  append_seq_packet (file, n + 1, FALSE);
  append_named_instant (file, 1, 2000);
  append_named_instant (file, 2, 3000);
  append_named_instant (file, 3, 4000);
  append_named_instant (file, 4, 5000);
  append_named_instant (file, n, 6000);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&file));
  out = pt_read (bytes, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rs.dropped_sequences, ==, 2);
  g_assert_cmpuint (rs.no_incremental_state, ==, 2);
  got = pt_event_strings (out, FALSE);
  for (guint i = 0; i < got->len; i++)
    g_test_message ("%s", (char *) got->pdata[i]);
  g_assert_cmpuint (got->len, ==, 4);
  for (guint i = 0; i < got->len; i++)
    g_assert_nonnull (strstr (got->pdata[i], "name='n'"));
  g_assert_nonnull (strstr (got->pdata[0], "ts=1000 "));
  g_assert_nonnull (strstr (got->pdata[1], "ts=2000 "));
  g_assert_nonnull (strstr (got->pdata[2], "ts=5000 "));
  g_assert_nonnull (strstr (got->pdata[3], "ts=6000 "));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/sequences/ids-memory", test_ids_memory);
  g_test_add_func ("/perfetto/sequences/interned-memory", test_interned_memory);
  g_test_add_func ("/perfetto/sequences/eviction", test_eviction);
  return g_test_run ();
}
