/* tracepipe tests - htrace helpers
 *
 * The walker below is independent of the reader: it does not use the
 * protobuf-c code generated from the plugin's .proto files, so counts
 * derived with it check the reader's decoding rather than repeat it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-test-util.h"

char *
htrace_test_path (const char *name)
{
  return g_build_filename (TEST_DATA_DIR, "htrace", name, NULL);
}

GBytes *
htrace_test_read (const char *name)
{
  g_autofree char *path = htrace_test_path (name);
  char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (contents, len);
}

HtraceRun *
htrace_run_bytes (const void *data,
                  gsize len,
                  GError **error)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (g_memdup2 (data, len), len, g_free);
  HtraceRun *run = g_new0 (HtraceRun, 1);
  TraceBatch *batch = NULL;

  run->pool = trace_string_pool_new ();
  run->reader = htrace_reader_new (in, "test.htrace", len, run->pool);
  run->batches = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_batch_unref);
  while (htrace_reader_read_batch (run->reader, &batch, error) && batch != NULL)
    g_ptr_array_add (run->batches, batch);
  return run;
}

HtraceRun *
htrace_run_file (const char *name,
                 GError **error)
{
  g_autoptr (GBytes) bytes = htrace_test_read (name);
  gsize len;
  const void *data = g_bytes_get_data (bytes, &len);

  return htrace_run_bytes (data, len, error);
}

void
htrace_run_free (HtraceRun *run)
{
  g_ptr_array_unref (run->batches);
  htrace_reader_free (run->reader);
  trace_string_pool_unref (run->pool);
  g_free (run);
}

const char *
htrace_run_string (HtraceRun *run,
                   guint32 id)
{
  return trace_string_pool_get (run->pool, id);
}

static gboolean
matches (HtraceRun *run,
         const TraceEvent *ev,
         TraceEventKind kind,
         const char *name)
{
  return ev->kind == kind && (name == NULL || g_strcmp0 (htrace_run_string (run, ev->name), name) == 0);
}

guint
htrace_run_count (HtraceRun *run,
                  TraceEventKind kind,
                  const char *name)
{
  guint n = 0;

  for (guint b = 0; b < run->batches->len; b++)
    {
      TraceBatch *batch = run->batches->pdata[b];

      for (guint i = 0; i < batch->n_events; i++)
        n += matches (run, &batch->events[i], kind, name);
    }
  return n;
}

const TraceEvent *
htrace_run_first (HtraceRun *run,
                  TraceEventKind kind,
                  const char *name)
{
  for (guint b = 0; b < run->batches->len; b++)
    {
      TraceBatch *batch = run->batches->pdata[b];

      for (guint i = 0; i < batch->n_events; i++)
        if (matches (run, &batch->events[i], kind, name))
          return &batch->events[i];
    }
  return NULL;
}

/* ---- the walker ---- */

void
wire_init (Wire *w,
           const guint8 *data,
           gsize len)
{
  memset (w, 0, sizeof *w);
  w->p = data;
  w->end = data + len;
}

static gboolean
read_varint (Wire *w,
             guint64 *v)
{
  *v = 0;
  for (guint shift = 0; w->p < w->end && shift < 64; shift += 7)
    {
      guint8 c = *w->p++;

      *v |= (guint64) (c & 0x7f) << shift;
      if (c < 0x80)
        return TRUE;
    }
  return FALSE;
}

gboolean
wire_next (Wire *w)
{
  guint64 key, len;

  if (w->p >= w->end || !read_varint (w, &key))
    return FALSE;
  w->field = key >> 3;
  w->wire_type = key & 7;
  switch (w->wire_type)
    {
    case 0:
      return read_varint (w, &w->value);
    case 1:
    case 5:
      if ((gsize) (w->end - w->p) < (w->wire_type == 1 ? 8u : 4u))
        return FALSE;
      w->data = w->p;
      w->p += w->wire_type == 1 ? 8 : 4;
      return TRUE;
    case 2:
      if (!read_varint (w, &len) || len > (guint64) (w->end - w->p))
        return FALSE;
      w->data = w->p;
      w->len = len;
      w->p += len;
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
wire_find (const guint8 *data,
           gsize len,
           guint field,
           const guint8 **out,
           gsize *out_len)
{
  Wire w;

  wire_init (&w, data, len);
  while (wire_next (&w))
    if (w.field == field && w.wire_type == 2)
      {
        *out = w.data;
        *out_len = w.len;
        return TRUE;
      }
  return FALSE;
}

guint64
wire_find_varint (const guint8 *data,
                  gsize len,
                  guint field)
{
  Wire w;

  wire_init (&w, data, len);
  while (wire_next (&w))
    if (w.field == field && w.wire_type == 0)
      return w.value;
  return 0;
}

guint
wire_foreach_record (GBytes *file,
                     WireRecordFunc func,
                     gpointer user_data)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (file, &size);
  gsize pos = 1024;
  guint n = 0;

  while (pos + 4 <= size)
    {
      guint32 len = d[pos] | d[pos + 1] << 8 | d[pos + 2] << 16 | (guint32) d[pos + 3] << 24;
      WireRecord rec = { 0 };
      const guint8 *name = NULL;
      gsize name_len = 0;

      pos += 4;
      g_assert_cmpuint (len, <=, size - pos);
      g_assert_true (wire_find (d + pos, len, 1, &name, &name_len));
      rec.name = g_strndup ((const char *) name, name_len);
      rec.tv_sec = wire_find_varint (d + pos, len, 5);
      rec.tv_nsec = wire_find_varint (d + pos, len, 6);
      if (!wire_find (d + pos, len, 3, &rec.data, &rec.len))
        rec.data = d + pos, rec.len = 0;
      func (&rec, user_data);
      g_free (rec.name);
      pos += len;
      n++;
    }
  return n;
}

/* ---- the writer ---- */

GByteArray *
wire_file_new (guint64 boottime,
               guint64 realtime,
               guint64 monotonic)
{
  GByteArray *b = g_byte_array_new ();
  guint8 head[1024] = { 0 };
  guint32 version = GUINT32_TO_LE (1u << 16);

  memcpy (head, "OHOSPROF", 8);
  memcpy (head + 16, &version, 4);
  boottime = GUINT64_TO_LE (boottime);
  realtime = GUINT64_TO_LE (realtime);
  monotonic = GUINT64_TO_LE (monotonic);
  memcpy (head + 60, &boottime, 8);
  memcpy (head + 68, &realtime, 8);
  memcpy (head + 84, &monotonic, 8);
  g_byte_array_append (b, head, sizeof head);
  return b;
}

void
wire_put_varint (GByteArray *b,
                 guint field,
                 guint64 v)
{
  guint64 key = (guint64) field << 3;

  do
    {
      guint8 c = (key & 0x7f) | (key > 0x7f ? 0x80 : 0);

      g_byte_array_append (b, &c, 1);
      key >>= 7;
    }
  while (key);
  do
    {
      guint8 c = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (b, &c, 1);
      v >>= 7;
    }
  while (v);
}

void
wire_put_bytes (GByteArray *b,
                guint field,
                const void *data,
                gsize len)
{
  guint64 key = (guint64) field << 3 | 2;
  guint64 l = len;

  do
    {
      guint8 c = (key & 0x7f) | (key > 0x7f ? 0x80 : 0);

      g_byte_array_append (b, &c, 1);
      key >>= 7;
    }
  while (key);
  do
    {
      guint8 c = (l & 0x7f) | (l > 0x7f ? 0x80 : 0);

      g_byte_array_append (b, &c, 1);
      l >>= 7;
    }
  while (l);
  g_byte_array_append (b, data, len);
}

void
wire_file_add_record (GByteArray *file,
                      const char *plugin,
                      guint64 tv_sec,
                      guint64 tv_nsec,
                      const GByteArray *result)
{
  g_autoptr (GByteArray) rec = g_byte_array_new ();
  guint32 len;

  wire_put_bytes (rec, 1, plugin, strlen (plugin));
  if (result)
    wire_put_bytes (rec, 3, result->data, result->len);
  wire_put_varint (rec, 5, tv_sec);
  wire_put_varint (rec, 6, tv_nsec);
  len = GUINT32_TO_LE (rec->len);
  g_byte_array_append (file, (const guint8 *) &len, 4);
  g_byte_array_append (file, rec->data, rec->len);
}
