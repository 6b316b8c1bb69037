/* tracepipe - Perfetto writer: events perfetto-src carried as opaque bytes
 *
 * perfetto-src keeps an ftrace event of a kind tracepipe's .proto subset
 * does not declare as a FTRACE event with two args: the FtraceEvent field
 * number and the payload in base64 (perfetto-reader-ftrace.c); a packet
 * of such a kind, as a RECORD event with the same two args and the
 * TracePacket field number (perfetto-reader-opaque.c). Written back under
 * that field number, the payload is byte for byte what the original held,
 * so trace_processor reads from our output what it read from the
 * original, whatever the event or packet is.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <string.h>

/* The largest field number protobuf allows. */
#define PROTOBUF_MAX_FIELD 536870911u

/* The args that hold a value (a carried record read back from JSON may
 * have null ones too). */
static guint
count_valued_args (TraceBatch *batch,
                   const TraceEvent *ev)
{
  const TraceArg *args = ev->n_args ? trace_batch_get_args (batch, ev) : NULL;
  guint n = 0;

  for (guint i = 0; i < ev->n_args; i++)
    n += !trace_arg_is_shape (&args[i]);
  return n;
}

/* Returns: the field number @arg names, 0 if none a payload may use
 * (one @desc declares itself, such as its timestamp, would be read
 * back as that field) */
static guint32
payload_field (const TraceArg *arg,
               const ProtobufCMessageDescriptor *desc)
{
  guint64 field;

  if (arg == NULL || (arg->type != TRACE_ARG_UINT && arg->type != TRACE_ARG_INT))
    return 0;
  field = arg->type == TRACE_ARG_UINT ? arg->v.u : (guint64) MAX (arg->v.i, 0);
  if (field == 0 || field > PROTOBUF_MAX_FIELD)
    return 0;
  /* system_info is declared (its kernel version is read) and carried;
   * sys_stats' unread members are carried as a payload of their own */
  if (desc == &perfetto__protos__trace_packet__descriptor && perfetto_packet_kind_carries_unread ((guint32) field))
    return (guint32) field;
  if (protobuf_c_message_descriptor_get_field (desc, (unsigned) field) != NULL)
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

/* Appends to @out the payload @ev carries for a field of @desc; see
 * perfetto_opaque_ftrace_payload(). */
static gboolean
opaque_payload (PerfettoWriter *w,
                TraceBatch *batch,
                const TraceEvent *ev,
                const ProtobufCMessageDescriptor *desc,
                guint32 *field,
                GArray *out)
{
  const TraceArg *bytes;
  const char *text;
  gsize len, start = out->len;
  gint state = 0;
  guint save = 0;

  if (count_valued_args (batch, ev) != 2)
    return FALSE;
  *field = payload_field (trace_batch_find_arg (batch, ev, trace_string_pool_intern (w->pool, PERFETTO_OPAQUE_FIELD_ARG)), desc);
  bytes = trace_batch_find_arg (batch, ev, trace_string_pool_intern (w->pool, PERFETTO_OPAQUE_BYTES_ARG));
  text = bytes != NULL ? trace_batch_get_arg_string (batch, bytes) : NULL;
  if (*field == 0 || text == NULL)
    return FALSE;
  len = strlen (text);
  g_array_set_size (out, start + (len / 4) * 3 + 3);
  len = g_base64_decode_step (text, len, (guchar *) out->data + start, &state, &save);
  g_array_set_size (out, start + len);
  if (!is_length_delimited ((const guint8 *) out->data + start, len))
    {
      /* not what perfetto-src made (args edited, or written by hand) */
      g_array_set_size (out, start);
      return FALSE;
    }
  return TRUE;
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
 *   there and well formed, the field one FtraceEvent does not declare),
 *   its payload appended to @out; else the caller writes it as a generic
 *   event instead of a malformed record
 */
gboolean
perfetto_opaque_ftrace_payload (PerfettoWriter *w,
                                TraceBatch *batch,
                                const TraceEvent *ev,
                                guint32 *field,
                                GArray *out)
{
  return opaque_payload (w, batch, ev, &perfetto__protos__ftrace_event__descriptor, field, out);
}

/* A system_info's kernel version decides how trace_processor reads every
 * prev_state of the output (the last one it sees wins): it becomes the
 * version the writer encodes states for, as long as none was written.
 * Once some were, a system_info naming another version loses its
 * utsname (trace_processor then keeps the version it had), so the states
 * read back as they were written. @payload: the record's bytes, length
 * prefix included; rewritten when the utsname goes. */
static void
declare_kernel_version (PerfettoWriter *w,
                        GArray *payload)
{
  const guint8 *data = (const guint8 *) payload->data;
  gsize prefix = 0;
  Perfetto__Protos__SystemInfo *info;
  g_autofree guint8 *packed = NULL;
  guint32 version;
  gsize len;

  while (prefix < payload->len && (data[prefix] & 0x80))
    prefix++;
  prefix++;
  info = perfetto__protos__system_info__unpack (NULL, payload->len - MIN (prefix, payload->len), data + prefix);
  if (info == NULL)
    return; /* written as it came: trace_processor cannot read it either */
  version = perfetto_system_info_version (info);
  if (!w->states_written)
    w->kernel_version = version;
  else if (version != w->kernel_version && info->utsname != NULL)
    {
      perfetto_writer_drop (w, &w->stats.dropped_late_utsname, 1, 0,
                            "utsname of a system_info naming another kernel after states were written dropped");
      perfetto__protos__utsname__free_unpacked (info->utsname, NULL);
      info->utsname = NULL;
      packed = perfetto_pack_length_delimited (&info->base, &len);
      g_array_set_size (payload, 0);
      g_array_append_vals (payload, packed, len);
    }
  perfetto__protos__system_info__free_unpacked (info, NULL);
}

/**
 * perfetto_write_record:
 * @w: a #PerfettoWriter
 * @batch: the event's batch
 * @ev: a RECORD event
 *
 * Writes a packet perfetto-src carried as a record back as it was: its
 * payload under its TracePacket field, at the event's time, on the
 * writer's sequence (the packets carried need no interned data). Records
 * of other formats, or whose args were edited, are dropped and counted.
 */
void
perfetto_write_record (PerfettoWriter *w,
                       TraceBatch *batch,
                       const TraceEvent *ev)
{
  ProtobufCMessageUnknownField payload = { 0 };
  guint32 field = 0;

  g_array_set_size (w->record_payload, 0);
  if (!opaque_payload (w, batch, ev, &perfetto__protos__trace_packet__descriptor, &field, w->record_payload))
    {
      perfetto_writer_drop (w, &w->stats.dropped_other, 1, ev->ts, "record with no Perfetto form dropped");
      return;
    }
  if (field == PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO)
    declare_kernel_version (w, w->record_payload);
  payload.tag = field;
  payload.wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
  payload.len = w->record_payload->len;
  payload.data = (guint8 *) w->record_payload->data;
  w->pkt.base.n_unknown_fields = 1;
  w->pkt.base.unknown_fields = &payload;
  w->stats.records++;
  perfetto_packet_emit (w, ev->ts, TRUE, FALSE);
}
