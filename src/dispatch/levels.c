/* src/dispatch/levels.c - level names and the features each level needs,
 * from src/implementations.def. */
#include "levels.h"

#include <strings.h>

typedef struct level_desc {
  const char *name;
  uint32_t features; /* needed on top of the level below */
} level_desc;

static const level_desc levels[CRISP_LEVEL_COUNT] = {
#define CRISP_LEVEL(ID, name, features) [CRISP_LEVEL_##ID] = {name, features},
#include "implementations.def"
};

/* " generic x86_64 ..." at compile time; the list starts after the first space. */
static const char level_list[] =
#define CRISP_LEVEL(ID, name, features) " " name
#include "implementations.def"
    ;

const char *crisp_level_name(crisp_level_id level) {
  return (unsigned)level < CRISP_LEVEL_COUNT ? levels[level].name : "unknown";
}

int crisp_level_parse(const char *name) {
  for (int i = 0; i < CRISP_LEVEL_COUNT; i++)
    if (strcasecmp(name, levels[i].name) == 0) return i;
  return -1;
}

uint32_t crisp_level_features(crisp_level_id level) {
  uint32_t features = 0;
  for (int i = 0; i <= (int)level && i < CRISP_LEVEL_COUNT; i++) features |= levels[i].features;
  return features;
}

crisp_level_id crisp_level_best(uint32_t cpu_features) {
  crisp_level_id best = CRISP_LEVEL_GENERIC;
  for (int i = 1; i < CRISP_LEVEL_COUNT; i++) {
    if ((crisp_level_features((crisp_level_id)i) & ~cpu_features) != 0) break;
    best = (crisp_level_id)i;
  }
  return best;
}

const char *crisp_level_list(void) {
  return level_list + 1;
}
