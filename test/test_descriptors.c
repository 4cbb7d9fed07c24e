/* test/test_descriptors.c - every descriptor the library is built with
 * carries its line of src/implementations.def: the registry lists, kernel
 * by kernel and best first, exactly the lines there, each with that name,
 * level and feature set. A descriptor written by hand instead of with
 * CRISP_IMPL_INFO, or one left out of the table, fails here. Linked with the
 * static library to reach the registry. */
#include "common.h"
#include "dispatch/registry.h"

typedef struct data_line {
  crisp_kernel kernel;
  const char *name;
  crisp_level_id level;
  uint32_t features;
} data_line;

static const data_line lines[] = {
#define CRISP_IMPL(kernel, symbol, name, LEVEL, features) \
  {(crisp_kernel)crisp_kernel_position_##kernel, name, CRISP_LEVEL_##LEVEL, (features)},
#include "implementations.def"
};
enum { LINES = sizeof lines / sizeof lines[0] };

static void test_registry_is_the_data(void **state) {
  (void)state;
  size_t listed = 0;
  for (int k = 0; k < CRISP_KERNEL_COUNT; k++) {
    size_t index = 0;
    for (size_t j = 0; j < LINES; j++) {
      if (lines[j].kernel != (crisp_kernel)k) continue;
      const crisp_impl_info *info = crisp_registry_at((crisp_kernel)k, index++);
      assert_non_null(info);
      if (strcmp(info->name, lines[j].name) != 0 || info->level != lines[j].level ||
          info->features != lines[j].features)
        fail_msg(
            "%s implementation %zu: descriptor says %s, level %d, features 0x%x; "
            "implementations.def says %s, level %d, features 0x%x",
            crisp_kernel_name((crisp_kernel)k), index - 1, info->name, info->level, info->features,
            lines[j].name, lines[j].level, lines[j].features);
    }
    assert_int_equal(crisp_registry_count((crisp_kernel)k), index);
    listed += index;
  }
  assert_int_equal(listed, LINES);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_registry_is_the_data)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
