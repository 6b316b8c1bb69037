/* tracepipe - ftrace reader: byte stages (stream, prefix, inflate, UTF-16)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A chain of stages, each reading from the one below: the file, then
 * maybe gunzip, then maybe UTF-16 -> UTF-8, then maybe the zlib stream of
 * an `atrace -z` capture. A prefix stage serves bytes already read while
 * sniffing before reading on.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _FtraceInput FtraceInput;

typedef enum
{
  FTRACE_INFLATE_GZIP, /* one or more gzip members; trailing bytes ignored */
  FTRACE_INFLATE_ZLIB, /* one zlib stream; stops at its end */
} FtraceInflateMode;

FtraceInput *ftrace_input_new_stream (GInputStream *stream);
FtraceInput *ftrace_input_new_prefixed (FtraceInput *upstream,
                                        const guint8 *data,
                                        gsize len);
FtraceInput *ftrace_input_new_inflate (FtraceInput *upstream,
                                       FtraceInflateMode mode,
                                       guint64 base_offset);
FtraceInput *ftrace_input_new_utf16 (FtraceInput *upstream,
                                     gboolean big_endian);

gssize ftrace_input_read (FtraceInput *input,
                          guint8 *buf,
                          gsize size,
                          GError **error);
gssize ftrace_input_read_full (FtraceInput *input,
                               guint8 *buf,
                               gsize size,
                               GError **error);
guint64 ftrace_input_get_raw_bytes (FtraceInput *input);
void ftrace_input_free (FtraceInput *input);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceInput, ftrace_input_free)

G_END_DECLS
