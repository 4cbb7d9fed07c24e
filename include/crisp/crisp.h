/* crisp/crisp.h - the whole crisp API: MD5, Poly1305, ChaCha20, the ChaCha20-Poly1305 AEADs, big integers
 * and dispatch control. */
#ifndef CRISP_CRISP_H
#define CRISP_CRISP_H

#include "common.h"
#include <crisp/version.h> /* by path: generated into the build tree */
#include "dispatch.h"
#include "md5.h"
#include "poly1305.h"
#include "chacha20.h"
#include "chacha20poly1305.h"
#include "bn.h"

#endif
