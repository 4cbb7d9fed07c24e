/* src/version.c - crisp_version: the version this library was built as. */
#include "crisp/version.h"

const char *crisp_version(void) {
  return CRISP_VERSION_STRING;
}
