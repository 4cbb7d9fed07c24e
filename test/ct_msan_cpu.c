/* test/ct_msan_cpu.c - makes Debian's cpu_features (not built with
 * MemorySanitizer) usable in the ct-msan build: the linker sends crisp's
 * call to GetX86Info here (-Wl,--wrap=GetX86Info), and what the real probe
 * wrote, which MemorySanitizer cannot have seen being written, is marked
 * initialised. CPUID results are public. */
#include <sanitizer/msan_interface.h>

#include <cpu_features/cpuinfo_x86.h>

X86Info __real_GetX86Info(void);
X86Info __wrap_GetX86Info(void);

X86Info __wrap_GetX86Info(void) {
  X86Info info = __real_GetX86Info();
  __msan_unpoison(&info, sizeof info);
  return info;
}
