/* tracepipe - arkts: the DevTools message stream
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "arktsprivate.h"

G_BEGIN_DECLS

typedef struct _ArktsMessages ArktsMessages;

ArktsMessages *arkts_messages_new (ArktsEnv *env,
                                   const ArktsReaderOptions *opts);
void arkts_messages_free (ArktsMessages *m);
gboolean arkts_messages_feed (ArktsMessages *m,
                              const char *data,
                              gsize len,
                              gsize *consumed,
                              TraceBatch *out,
                              ArktsCpuProfile **cpu,
                              GError **error);
void arkts_messages_finish (ArktsMessages *m,
                            TraceBatch *out);

G_END_DECLS
