/* tracepipe - ftrace reader: byte stages (stream, prefix, zlib, UTF-16)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <zlib.h>

#include <trace/trace.h>

#include "ftrace-text-private.h"

#define INFLATE_IN_SIZE (256 * 1024)
#define UTF16_IN_SIZE (256 * 1024)

typedef enum
{
  STAGE_STREAM,
  STAGE_PREFIX,
  STAGE_INFLATE,
  STAGE_UTF16,
} StageKind;

struct _FtraceInput
{
  StageKind kind;
  FtraceInput *up;
  guint64 produced; /* bytes handed out by this stage */

  /* STAGE_STREAM */
  GInputStream *stream;

  /* STAGE_PREFIX */
  guint8 *prefix;
  gsize prefix_len;
  gsize prefix_pos;

  /* STAGE_INFLATE */
  z_stream z;
  guint8 *zin;
  guint64 base_offset;
  gboolean up_eof;
  gboolean z_end;
  gboolean z_cut; /* the input ended inside the zlib stream */

  /* STAGE_UTF16 */
  gboolean big_endian;
  guint8 carry[2];
  gsize carry_len;
  guint32 high_surrogate;
  guint8 *u16; /* UTF16_IN_SIZE + carry */
  guint8 *u8;  /* the last block converted, handed out from u8_pos */
  gsize u8_len;
  gsize u8_pos;
};

static FtraceInput *
stage_new (StageKind kind,
           FtraceInput *up)
{
  FtraceInput *in = g_new0 (FtraceInput, 1);

  in->kind = kind;
  in->up = up;
  return in;
}

FtraceInput *
ftrace_input_new_stream (GInputStream *stream)
{
  FtraceInput *in = stage_new (STAGE_STREAM, NULL);

  in->stream = g_object_ref (stream);
  return in;
}

/* Serves a copy of @data, then reads on from @upstream (owned). */
FtraceInput *
ftrace_input_new_prefixed (FtraceInput *upstream,
                           const guint8 *data,
                           gsize len)
{
  FtraceInput *in = stage_new (STAGE_PREFIX, upstream);

  in->prefix = g_memdup2 (data, len);
  in->prefix_len = len;
  return in;
}

/* Decompresses the one zlib stream of an `atrace -z` capture from
 * @upstream (owned), stopping at its end; @base_offset is where the
 * compressed data starts in the file, for error messages. (gzip files are
 * not this: TraceFileSrc undoes gzip before the reader sees the input.) */
FtraceInput *
ftrace_input_new_inflate (FtraceInput *upstream,
                          guint64 base_offset)
{
  FtraceInput *in = stage_new (STAGE_INFLATE, upstream);

  in->base_offset = base_offset;
  in->zin = g_malloc (INFLATE_IN_SIZE);
  inflateInit2 (&in->z, 15); /* zlib only */
  return in;
}

/* Decodes UTF-16 (after its byte-order mark) from @upstream (owned) to
 * UTF-8; unpaired surrogates become U+FFFD. */
FtraceInput *
ftrace_input_new_utf16 (FtraceInput *upstream,
                        gboolean big_endian)
{
  FtraceInput *in = stage_new (STAGE_UTF16, upstream);

  in->big_endian = big_endian;
  return in;
}

void
ftrace_input_free (FtraceInput *in)
{
  while (in != NULL)
    {
      FtraceInput *up = in->up;

      g_clear_object (&in->stream);
      g_free (in->prefix);
      if (in->kind == STAGE_INFLATE)
        inflateEnd (&in->z);
      g_free (in->zin);
      g_free (in->u16);
      g_free (in->u8);
      g_free (in);
      in = up;
    }
}

/* Whether a zlib stage met the end of its input inside the stream;
 * @offset: the byte of the file where the compressed data ends. */
gboolean
ftrace_input_get_cut (FtraceInput *in,
                      guint64 *offset)
{
  for (; in != NULL; in = in->up)
    if (in->kind == STAGE_INFLATE && in->z_cut)
      {
        *offset = in->base_offset + in->z.total_in;
        return TRUE;
      }
  return FALSE;
}

/* Bytes read from the file so far, for progress. */
guint64
ftrace_input_get_raw_bytes (FtraceInput *in)
{
  while (in->up != NULL)
    in = in->up;
  return in->produced;
}

/* ---------------------------------------------------------------- inflate */

static guint64
inflate_offset (FtraceInput *in)
{
  return in->base_offset + in->z.total_in;
}

static gssize
inflate_read (FtraceInput *in,
              guint8 *buf,
              gsize size,
              GError **error)
{
  in->z.next_out = buf;
  in->z.avail_out = size;
  while (in->z.avail_out == size && !in->z_end)
    {
      int ret;

      if (in->z.avail_in == 0 && !in->up_eof)
        {
          gssize n = ftrace_input_read (in->up, in->zin, INFLATE_IN_SIZE, error);

          if (n < 0)
            return -1;
          in->up_eof = n == 0;
          in->z.next_in = in->zin;
          in->z.avail_in = n;
        }
      ret = inflate (&in->z, Z_NO_FLUSH);
      if (ret == Z_STREAM_END)
        in->z_end = TRUE;
      else if (ret == Z_BUF_ERROR || (ret == Z_OK && in->z.avail_in == 0 && in->up_eof))
        {
          /* a capture cut while written: what was inflated is read,
           * the reader's summary says where it ends (as for gzip) */
          if (in->z.avail_in == 0 && in->up_eof && in->z.avail_out == size)
            in->z_end = in->z_cut = TRUE;
        }
      else if (ret != Z_OK)
        {
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_DECODE,
                       "corrupt zlib data at byte %" G_GUINT64_FORMAT ": %s",
                       inflate_offset (in), in->z.msg ? in->z.msg : "invalid data");
          return -1;
        }
    }
  return size - in->z.avail_out;
}

/* ---------------------------------------------------------------- UTF-16 */

static gsize
put_utf8 (guint8 *out,
          guint32 c)
{
  return g_unichar_to_utf8 (c, (char *) out);
}

static gsize
utf16_convert (FtraceInput *in,
               const guint8 *src,
               gsize len,
               guint8 *out)
{
  gsize o = 0;

  for (gsize i = 0; i + 1 < len; i += 2)
    {
      guint32 u = in->big_endian ? (src[i] << 8 | src[i + 1]) : (src[i + 1] << 8 | src[i]);

      if (in->high_surrogate)
        {
          guint32 hi = in->high_surrogate;

          in->high_surrogate = 0;
          if (u >= 0xDC00 && u <= 0xDFFF)
            {
              o += put_utf8 (out + o, 0x10000 + ((hi - 0xD800) << 10) + (u - 0xDC00));
              continue;
            }
          o += put_utf8 (out + o, 0xFFFD);
        }
      if (u >= 0xD800 && u <= 0xDBFF)
        in->high_surrogate = u;
      else if (u >= 0xDC00 && u <= 0xDFFF)
        o += put_utf8 (out + o, 0xFFFD);
      else if (u < 0x80)
        out[o++] = (guint8) u;
      else
        o += put_utf8 (out + o, u);
    }
  return o;
}

/* Converts UTF16_IN_SIZE input bytes at a time into u8 and hands that
 * out in pieces of any size. A block gives at most 3 bytes per code unit
 * plus a U+FFFD for a high surrogate left by the block before, which is
 * more than 1.5 × its size: converting straight into the caller's
 * buffer, sized by the caller's request, could write past it. */
static gssize
utf16_read (FtraceInput *in,
            guint8 *buf,
            gsize size,
            GError **error)
{
  gsize n;

  if (in->u16 == NULL)
    {
      in->u16 = g_malloc (UTF16_IN_SIZE + 2);
      in->u8 = g_malloc (UTF16_IN_SIZE / 2 * 3 + 3);
    }
  while (in->u8_pos == in->u8_len)
    {
      gssize got;
      gsize total;

      memcpy (in->u16, in->carry, in->carry_len);
      got = ftrace_input_read (in->up, in->u16 + in->carry_len, UTF16_IN_SIZE - in->carry_len, error);
      if (got < 0)
        return -1;
      in->u8_pos = 0;
      in->u8_len = 0;
      if (got == 0)
        {
          if (!in->high_surrogate)
            return 0;
          in->high_surrogate = 0;
          in->u8_len = put_utf8 (in->u8, 0xFFFD);
          break;
        }
      total = in->carry_len + got;
      in->u8_len = utf16_convert (in, in->u16, total, in->u8);
      in->carry_len = total & 1;
      if (in->carry_len)
        in->carry[0] = in->u16[total - 1];
    }
  n = MIN (size, in->u8_len - in->u8_pos);
  memcpy (buf, in->u8 + in->u8_pos, n);
  in->u8_pos += n;
  return n;
}

/* ---------------------------------------------------------------- public */

/* Reads up to @size bytes; 0 at the end; -1 with @error set. */
gssize
ftrace_input_read (FtraceInput *in,
                   guint8 *buf,
                   gsize size,
                   GError **error)
{
  gssize n = 0;

  switch (in->kind)
    {
    case STAGE_STREAM:
      n = g_input_stream_read (in->stream, buf, size, NULL, error);
      break;
    case STAGE_PREFIX:
      if (in->prefix_pos < in->prefix_len)
        {
          n = MIN (size, in->prefix_len - in->prefix_pos);
          memcpy (buf, in->prefix + in->prefix_pos, n);
          in->prefix_pos += n;
          if (in->prefix_pos == in->prefix_len)
            g_clear_pointer (&in->prefix, g_free);
        }
      else
        n = ftrace_input_read (in->up, buf, size, error);
      break;
    case STAGE_INFLATE:
      n = inflate_read (in, buf, size, error);
      break;
    case STAGE_UTF16:
      n = utf16_read (in, buf, size, error);
      break;
    }
  if (n > 0)
    in->produced += n;
  return n;
}

/* Reads until @size bytes or the end. */
gssize
ftrace_input_read_full (FtraceInput *in,
                        guint8 *buf,
                        gsize size,
                        GError **error)
{
  gsize total = 0;

  while (total < size)
    {
      gssize n = ftrace_input_read (in, buf + total, size - total, error);

      if (n < 0)
        return -1;
      if (n == 0)
        break;
      total += n;
    }
  return total;
}
