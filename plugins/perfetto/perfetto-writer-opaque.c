/* tracepipe - Perfetto writer: events perfetto-src carried as opaque bytes
 *
 * perfetto-src keeps an ftrace event of a kind tracepipe's .proto subset
 * does not declare as a FTRACE event with two args: the FtraceEvent field
 * number and the payload in base64 (perfetto-reader-ftrace.c). Written
 * back under that field number, the payload is byte for byte what the
 * original held, so trace_processor reads from our output what it read
 * from the original, whatever the event is.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-private.h"

#include <string.h>

/* The largest field number protobuf allows. */
#define PROTOBUF_MAX_FIELD 536870911u

static const TraceArg *
find_arg (TraceBatch *batch,
          const TraceEvent *ev,
          guint32 key)
{
  const TraceArg *args = ev->n_args ? trace_batch_get_args (batch, ev) : NULL;

  for (guint i = 0; i < ev->n_args; i++)
    if (args[i].key == key)
      return &args[i];
  return NULL;
}

/* Returns: the field number @arg names, 0 if none a payload may use
 * (one FtraceEvent declares itself, such as its timestamp, would be read
 * back as that field) */
static guint32
payload_field (const TraceArg *arg)
{
  guint64 field;

  if (arg == NULL || (arg->type != TRACE_ARG_UINT && arg->type != TRACE_ARG_INT))
    return 0;
  field = arg->type == TRACE_ARG_UINT ? arg->v.u : (guint64) MAX (arg->v.i, 0);
  if (field == 0 || field > PROTOBUF_MAX_FIELD ||
      protobuf_c_message_descriptor_get_field (&perfetto__protos__ftrace_event__descriptor, (unsigned) field) != NULL)
    return 0;
  return (guint32) field;
}

/* Whether @data is a length-delimited value: a varint length, then
 * exactly that many bytes (so it cannot spill into fields of its own). */
static gboolean
is_length_delimited (const guint8 *data,
                     gsize len)
{
  guint64 body = 0;
  guint i;

  for (i = 0; i < len && i < 10; i++)
    {
      body |= (guint64) (data[i] & 0x7f) << (7 * i);
      if (!(data[i] & 0x80))
        return body == len - i - 1;
    }
  return FALSE;
}

/**
 * perfetto_opaque_ftrace_payload:
 * @w: a #PerfettoWriter
 * @batch: the event's batch
 * @ev: a FTRACE event
 * @field: (out): the FtraceEvent field number of its payload
 * @out: where the payload's bytes are appended
 *
 * Returns: %TRUE if @ev is an event carried as opaque bytes (both args
 *   there and well formed), its payload appended to @out
 */
gboolean
perfetto_opaque_ftrace_payload (PerfettoWriter *w,
                                TraceBatch *batch,
                                const TraceEvent *ev,
                                guint32 *field,
                                GArray *out)
{
  const TraceArg *bytes;
  const char *text;
  gsize len, start = out->len;
  gint state = 0;
  guint save = 0;

  if (ev->n_args != 2)
    return FALSE;
  *field = payload_field (find_arg (batch, ev, trace_string_pool_intern (w->pool, PERFETTO_OPAQUE_FIELD_ARG)));
  bytes = find_arg (batch, ev, trace_string_pool_intern (w->pool, PERFETTO_OPAQUE_BYTES_ARG));
  if (*field == 0 || bytes == NULL || bytes->type != TRACE_ARG_STRING)
    return FALSE;
  text = trace_string_pool_get (w->pool, bytes->v.s);
  len = strlen (text);
  g_array_set_size (out, start + (len / 4) * 3 + 3);
  len = g_base64_decode_step (text, len, (guchar *) out->data + start, &state, &save);
  g_array_set_size (out, start + len);
  if (!is_length_delimited ((const guint8 *) out->data + start, len))
    {
      /* not what perfetto-src made (args edited, or written by hand):
       * written as a generic event instead of a malformed record */
      g_array_set_size (out, start);
      return FALSE;
    }
  return TRUE;
}
