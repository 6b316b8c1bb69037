/* tracepipe - Perfetto: the names of Chrome's kinds of thread
 *
 * Chrome describes a thread's track with the kind of thread it is
 * (`ChromeThreadDescriptor.thread_type`, Chromium's ThreadType enum) and
 * often no name. trace_processor names such a thread by its kind, with
 * the names Chrome gives those threads (some end in '&', as Chrome's
 * numbered worker names do); perfetto-src names it the same, so its
 * threads keep their names through a conversion.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"

static const struct
{
  gint32 thread_type;
  const char *name;
} chrome_threads[] = {
  { 1, "CrProcessMain" },
  { 2, "ChromeIOThread" },
  { 3, "ThreadPoolBackgroundWorker&" },
  { 4, "ThreadPoolForegroundWorker&" },
  { 5, "ThreadPoolSingleThreadForegroundBlocking&" },
  { 6, "ThreadPoolSingleThreadBackgroundBlocking&" },
  { 7, "ThreadPoolService" },
  { 8, "Compositor" },
  { 9, "VizCompositorThread" },
  { 10, "CompositorTileWorker&" },
  { 11, "ServiceWorkerThread&" },
  { 12, "NetworkService" },
  { 13, "Chrome_ChildIOThread" },
  { 14, "Chrome_IOThread" },
  { 15, "CrBrowserMain" },
  { 16, "CrRendererMain" },
  { 17, "CrUtilityMain" },
  { 18, "CrGpuMain" },
  { 19, "CacheThread_BlockFile" },
  { 20, "Media" },
  { 21, "AudioOutputDevice" },
  { 22, "AudioInputDevice" },
  { 23, "GpuMemoryThread" },
  { 24, "GpuVSyncThread" },
  { 25, "DXVAVideoDecoderThread" },
  { 26, "BrowserWatchdog" },
  { 27, "WebRTC_Network" },
  { 28, "Window owner thread" },
  { 29, "WebRTC_Signaling" },
  { 30, "WebRTC_Worker" },
  { 31, "CrPPAPIMain" },
  { 32, "GpuWatchdog" },
  { 33, "swapper" },
  { 34, "Gamepad polling thread" },
  { 35, "WebCrypto" },
  { 36, "Database thread" },
  { 37, "Proxy Resolver" },
  { 38, "Chrome_DevToolsADBThread" },
  { 39, "NetworkConfigWatcher" },
  { 40, "wasapi_render_thread" },
  { 41, "LoaderLockSampler" },
  { 42, "VSyncThread" },
  { 50, "MemoryInfra" },
  { 51, "StackSamplingProfiler" },
  { 52, "CompositorGpuThread" },
};

/**
 * perfetto_chrome_thread_name:
 * @thread_type: a value of Chromium's ThreadType
 *
 * Returns: (nullable): the name of threads of that kind, %NULL for one
 *   the table does not know (the thread stays unnamed)
 */
const char *
perfetto_chrome_thread_name (gint32 thread_type)
{
  for (guint i = 0; i < G_N_ELEMENTS (chrome_threads); i++)
    if (chrome_threads[i].thread_type == thread_type)
      return chrome_threads[i].name;
  return NULL;
}
