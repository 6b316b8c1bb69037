/* tracepipe - gzip, every member of it, as a GConverter
 *
 * GZlibDecompressor stops at the end of the first gzip member, and a
 * GConverterInputStream then reports the end of the file: `cat a.gz b.gz`,
 * pigz and bgzip output lost everything after the first member, silently.
 * This converter lets zlib inflate member after member (inflateReset at
 * each member's end) and says how the input ended: whole, cut inside a
 * member (a capture cut while it was written: what came before is kept),
 * or followed by bytes that are no gzip member (ignored). TraceFileSrc
 * turns the last two into a WARNING naming the file and the byte offset.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "trace-private.h"

#include <zlib.h>

struct _TraceGzipDecoder
{
  GObject parent_instance;
  z_stream z;
  gboolean in_member;   /* inside a member: the next bytes are inflated */
  gboolean in_trailer;  /* past the members: what follows is not gzip */
  guint64 offset;       /* compressed bytes consumed so far */
  guint64 member_start; /* where the member being inflated began */
  guint members;
  TraceGzipEnd end;
  guint64 end_offset;
  guint64 trailing_bytes;
  TraceGzipEndFunc end_func;
  gpointer end_data;
};

static void trace_gzip_decoder_converter_init (GConverterIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TraceGzipDecoder, _trace_gzip_decoder, G_TYPE_OBJECT, G_IMPLEMENT_INTERFACE (G_TYPE_CONVERTER, trace_gzip_decoder_converter_init))

static void
reset_state (TraceGzipDecoder *self)
{
  inflateReset (&self->z);
  self->in_member = self->in_trailer = FALSE;
  self->offset = self->member_start = 0;
  self->members = 0;
  self->end = TRACE_GZIP_END_NONE;
  self->end_offset = self->trailing_bytes = 0;
}

/* Between members: another one starts with the gzip magic; anything else
 * is trailing data, skipped to the end (a damaged tail or padding). */
static GConverterResult
start_member (TraceGzipDecoder *self,
              const guint8 *in,
              gsize in_size,
              GConverterFlags flags,
              gsize *bytes_read,
              GError **error)
{
  gboolean at_end = (flags & G_CONVERTER_INPUT_AT_END) != 0;

  if (in_size == 0 && at_end)
    {
      self->end = self->members > 0 ? TRACE_GZIP_END_WHOLE : TRACE_GZIP_END_CUT;
      self->end_offset = self->offset;
      return G_CONVERTER_FINISHED;
    }
  if (in_size < 2 && !at_end)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "more input needed");
      return G_CONVERTER_ERROR;
    }
  if (in_size >= 2 && in[0] == 0x1f && in[1] == 0x8b)
    {
      self->in_member = TRUE;
      self->member_start = self->offset;
      return G_CONVERTER_CONVERTED;
    }
  self->in_trailer = TRUE;
  self->end = TRACE_GZIP_END_TRAILING;
  self->end_offset = self->offset;
  *bytes_read = in_size;
  self->trailing_bytes += in_size;
  self->offset += in_size;
  return at_end ? G_CONVERTER_FINISHED : G_CONVERTER_CONVERTED;
}

static GConverterResult
inflate_member (TraceGzipDecoder *self,
                const guint8 *in,
                gsize in_size,
                guint8 *out,
                gsize out_size,
                GConverterFlags flags,
                gsize *bytes_read,
                gsize *bytes_written,
                GError **error)
{
  int ret;

  self->z.next_in = (Bytef *) in;
  self->z.avail_in = (uInt) MIN (in_size, G_MAXUINT32);
  self->z.next_out = out;
  self->z.avail_out = (uInt) MIN (out_size, G_MAXUINT32);
  ret = inflate (&self->z, Z_NO_FLUSH);
  *bytes_read = in_size - self->z.avail_in;
  *bytes_written = out_size - self->z.avail_out;
  self->offset += *bytes_read;
  if (ret == Z_STREAM_END)
    {
      self->members++;
      self->in_member = FALSE;
      inflateReset (&self->z);
      return G_CONVERTER_CONVERTED;
    }
  if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_MEM_ERROR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the gzip data is damaged at byte %" G_GUINT64_FORMAT " (member at byte %" G_GUINT64_FORMAT "): %s",
                   self->offset, self->member_start, self->z.msg ? self->z.msg : "invalid data");
      return G_CONVERTER_ERROR;
    }
  if (*bytes_read > 0 || *bytes_written > 0)
    return G_CONVERTER_CONVERTED;
  if (out_size == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "no room for the output");
      return G_CONVERTER_ERROR;
    }
  if (!(flags & G_CONVERTER_INPUT_AT_END))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "more input needed");
      return G_CONVERTER_ERROR;
    }
  /* The input ends inside a member: keep what was inflated. */
  self->end = TRACE_GZIP_END_CUT;
  self->end_offset = self->offset;
  return G_CONVERTER_FINISHED;
}

static GConverterResult
convert_step (TraceGzipDecoder *self,
              const void *inbuf,
              gsize inbuf_size,
              void *outbuf,
              gsize outbuf_size,
              GConverterFlags flags,
              gsize *bytes_read,
              gsize *bytes_written,
              GError **error)
{
  GConverterResult result;

  *bytes_read = *bytes_written = 0;
  if (self->in_trailer)
    {
      if (inbuf_size == 0 && !(flags & G_CONVERTER_INPUT_AT_END))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "more input needed");
          return G_CONVERTER_ERROR;
        }
      *bytes_read = inbuf_size;
      self->trailing_bytes += inbuf_size;
      self->offset += inbuf_size;
      return (flags & G_CONVERTER_INPUT_AT_END) ? G_CONVERTER_FINISHED : G_CONVERTER_CONVERTED;
    }
  if (!self->in_member)
    {
      result = start_member (self, inbuf, inbuf_size, flags, bytes_read, error);
      if (result != G_CONVERTER_CONVERTED || !self->in_member)
        return result;
    }
  return inflate_member (self, inbuf, inbuf_size, outbuf, outbuf_size, flags, bytes_read, bytes_written, error);
}

static GConverterResult
trace_gzip_decoder_convert (GConverter *converter,
                            const void *inbuf,
                            gsize inbuf_size,
                            void *outbuf,
                            gsize outbuf_size,
                            GConverterFlags flags,
                            gsize *bytes_read,
                            gsize *bytes_written,
                            GError **error)
{
  TraceGzipDecoder *self = TRACE_GZIP_DECODER (converter);
  GConverterResult result =
      convert_step (self, inbuf, inbuf_size, outbuf, outbuf_size, flags, bytes_read, bytes_written, error);

  if (result == G_CONVERTER_FINISHED && self->end != TRACE_GZIP_END_WHOLE && self->end_func != NULL)
    self->end_func (self, self->end_data);
  return result;
}

static void
trace_gzip_decoder_reset (GConverter *converter)
{
  reset_state (TRACE_GZIP_DECODER (converter));
}

static void
trace_gzip_decoder_converter_init (GConverterIface *iface)
{
  iface->convert = trace_gzip_decoder_convert;
  iface->reset = trace_gzip_decoder_reset;
}

static void
trace_gzip_decoder_finalize (GObject *object)
{
  inflateEnd (&TRACE_GZIP_DECODER (object)->z);
  G_OBJECT_CLASS (_trace_gzip_decoder_parent_class)->finalize (object);
}

static void
_trace_gzip_decoder_class_init (TraceGzipDecoderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trace_gzip_decoder_finalize;
}

static void
_trace_gzip_decoder_init (TraceGzipDecoder *self)
{
  /* 15 + 16: a gzip wrapper, the largest window */
  if (inflateInit2 (&self->z, 15 + 16) != Z_OK)
    g_error ("zlib cannot start: out of memory");
}

/* @end_func is called once the input has ended when it did not end after
 * a whole member (cut, or trailing data): the moment to tell the user. */
TraceGzipDecoder *
_trace_gzip_decoder_new (TraceGzipEndFunc end_func,
                         gpointer end_data)
{
  TraceGzipDecoder *self = g_object_new (TRACE_TYPE_GZIP_DECODER, NULL);

  self->end_func = end_func;
  self->end_data = end_data;
  return self;
}

/* How the input ended (TRACE_GZIP_END_NONE while it has not), the byte
 * offset where, and for trailing data how many bytes were skipped. */
TraceGzipEnd
_trace_gzip_decoder_get_end (TraceGzipDecoder *self,
                             guint64 *offset,
                             guint64 *trailing_bytes,
                             guint *members)
{
  *offset = self->end_offset;
  *trailing_bytes = self->trailing_bytes;
  *members = self->members;
  return self->end;
}
