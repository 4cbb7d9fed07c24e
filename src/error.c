/* src/error.c - crisp_strerror. */
#include "crisp/common.h"

const char *crisp_strerror(int code) {
  switch (code) {
    case CRISP_OK:
      return "success";
    case CRISP_E_INVALID:
      return "invalid argument";
    case CRISP_E_RANGE:
      return "argument out of range";
    case CRISP_E_UNSUPPORTED:
      return "not supported by this CPU";
    case CRISP_E_MISMATCH:
      return "mismatch: a tag or a result check failed";
    case CRISP_E_NOMEM:
      return "out of memory";
    default:
      return "unknown error";
  }
}
