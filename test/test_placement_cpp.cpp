// test/test_placement_cpp.cpp - crisp's contexts inside C++ objects: a
// struct holding them made with new and new[] (C++14, so no over-aligned
// operator new), and kept in a std::vector that moves them while it grows
// mid-stream; every Poly1305 and MD5 implementation this CPU supports,
// against generic. Exits non-zero on the first mismatch.
#include <crisp/crisp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace {

struct session {
  std::uint8_t id; // puts the contexts off any boundary larger than 8 bytes
  crisp_poly1305_ctx poly1305;
  crisp_md5_ctx md5;
};

constexpr std::size_t message_size = 3000;
constexpr std::size_t first_part = 1000;

int failures = 0;

void check(bool ok, const char *kernel, const char *name, const char *where) {
  if (!ok) {
    std::printf("FAIL %s %s: %s\n", kernel, name, where);
    failures++;
  }
}

void fill(std::uint8_t *out, std::size_t len, std::uint32_t seed) {
  for (std::size_t i = 0; i < len; i++) out[i] = static_cast<std::uint8_t>((seed + i * 131) >> 3);
}

// Starts a session's two streams on the first part of the message.
void start(session &s, const std::uint8_t *key, const std::uint8_t *data) {
  crisp_poly1305_init(&s.poly1305, key);
  crisp_poly1305_update(&s.poly1305, data, first_part);
  crisp_md5_init(&s.md5);
  crisp_md5_update(&s.md5, data, first_part);
}

// Finishes them and compares with the expected tag and digest.
void finish(session &s, const std::uint8_t *data, const std::uint8_t *tag, const std::uint8_t *digest,
            const char *name, const char *where) {
  std::uint8_t got_tag[CRISP_POLY1305_TAG_SIZE], got_digest[CRISP_MD5_DIGEST_SIZE];
  crisp_poly1305_update(&s.poly1305, data + first_part, message_size - first_part);
  crisp_poly1305_final(&s.poly1305, got_tag);
  crisp_md5_update(&s.md5, data + first_part, message_size - first_part);
  crisp_md5_final(&s.md5, got_digest);
  check(std::memcmp(got_tag, tag, sizeof got_tag) == 0, "poly1305", name, where);
  check(std::memcmp(got_digest, digest, sizeof got_digest) == 0, "md5", name, where);
}

// The same implementation name pinned for both kernels when both have it,
// generic for a kernel that lacks it.
void pin(const char *name) {
  if (crisp_use_impl(CRISP_KERNEL_POLY1305, name) != CRISP_OK)
    crisp_use_impl(CRISP_KERNEL_POLY1305, "generic");
  if (crisp_use_impl(CRISP_KERNEL_MD5, name) != CRISP_OK) crisp_use_impl(CRISP_KERNEL_MD5, "generic");
}

} // namespace

int main() {
  std::vector<std::uint8_t> data(message_size);
  std::uint8_t key[CRISP_POLY1305_KEY_SIZE], tag[CRISP_POLY1305_TAG_SIZE], digest[CRISP_MD5_DIGEST_SIZE];
  fill(data.data(), data.size(), 7);
  fill(key, sizeof key, 99);
  pin("generic");
  crisp_poly1305(tag, data.data(), data.size(), key);
  crisp_md5(data.data(), data.size(), digest);

  int runs = 0;
  for (const crisp_kernel kernel : {CRISP_KERNEL_POLY1305, CRISP_KERNEL_MD5}) {
    for (std::size_t i = 0; i < crisp_impl_count(kernel); i++) {
      if (!crisp_impl_supported_at(kernel, i)) continue;
      const char *name = crisp_impl_name_at(kernel, i);
      pin(name);
      runs++;

      std::unique_ptr<session> one(new session());
      start(*one, key, data.data());
      finish(*one, data.data(), tag, digest, name, "new session");

      std::unique_ptr<session[]> array(new session[5]());
      for (std::size_t k = 0; k < 5; k++) start(array[k], key, data.data());
      for (std::size_t k = 0; k < 5; k++) finish(array[k], data.data(), tag, digest, name, "new session[5]");

      // Every push_back past the capacity moves the open streams.
      std::vector<session> sessions(1);
      start(sessions[0], key, data.data());
      for (int k = 0; k < 40; k++) {
        sessions.push_back(session());
        start(sessions.back(), key, data.data());
      }
      for (session &s : sessions) finish(s, data.data(), tag, digest, name, "std::vector growing mid-stream");
    }
  }
  crisp_use_impl(CRISP_KERNEL_POLY1305, nullptr);
  crisp_use_impl(CRISP_KERNEL_MD5, nullptr);
  std::printf("%d implementations, %d failures\n", runs, failures);
  return failures == 0 && runs > 0 ? 0 : 1;
}
