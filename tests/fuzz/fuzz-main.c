/* tracepipe fuzzing - the libFuzzer entry point of one target
 *
 * Built once per target with -DFUZZ_FUNC=fuzz_<name> and linked with
 * -fsanitize=fuzzer (see meson.build).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz-targets.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  FUZZ_FUNC (data, size);
  return 0;
}
