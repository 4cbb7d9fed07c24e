/* test/memcheck_optional.h - valgrind's client requests where its header
 * is installed, else no-ops: for tests that also run without valgrind
 * (the wipe checks mark bytes they read as defined, which only valgrind
 * needs to be told). */
#ifndef CRISP_TEST_MEMCHECK_OPTIONAL_H
#define CRISP_TEST_MEMCHECK_OPTIONAL_H

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_MAKE_MEM_DEFINED
#define VALGRIND_MAKE_MEM_DEFINED(address, length) ((void)(address), (void)(length))
#endif

#endif
