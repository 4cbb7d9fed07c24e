/* provider/rsa_padding.c - EMSA-PKCS1-v1_5 and EMSA-PSS (RFC 8017,
 * sections 9.1 and 9.2) for the provider's RSA signatures. Nothing here is
 * secret but the hash being signed, which the signature reveals anyway, so
 * plain branches are fine. */
#include "rsa_padding.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "provider.h"

/* DigestInfo ::= SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING hash }:
 * the DER bytes before the hash, built from the algorithm's OID. */
typedef struct digest_oid {
  const char *name;
  unsigned char length;
  unsigned char bytes[9];
  /* X of the signature algorithm 1.2.840.113549.1.1.X (the digest with
   * PKCS#1 v1.5 RSA), 0 where none is given here. */
  unsigned char pkcs1_arc;
} digest_oid;

#define NIST_HASH(last) \
  { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, last }
static const digest_oid digest_oids[] = {
    {"MD5", 8, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x05}, 4}, /* 1.2.840.113549.2.5 */
    {"SHA1", 5, {0x2b, 0x0e, 0x03, 0x02, 0x1a}, 5},                  /* 1.3.14.3.2.26 */
    {"SHA2-256", 9, NIST_HASH(0x01), 11},                            /* 2.16.840.1.101.3.4.2.1 */
    {"SHA2-384", 9, NIST_HASH(0x02), 12},
    {"SHA2-512", 9, NIST_HASH(0x03), 13},
    {"SHA2-224", 9, NIST_HASH(0x04), 14},
    {"SHA2-512/224", 9, NIST_HASH(0x05), 15},
    {"SHA2-512/256", 9, NIST_HASH(0x06), 16},
    {"SHA3-224", 9, NIST_HASH(0x07), 0},
    {"SHA3-256", 9, NIST_HASH(0x08), 0},
    {"SHA3-384", 9, NIST_HASH(0x09), 0},
    {"SHA3-512", 9, NIST_HASH(0x0a), 0},
};
enum { DIGEST_INFO_MAX_PREFIX = 2 + 2 + 2 + 9 + 2 + 2 };

static const digest_oid *find_oid(const EVP_MD *md) {
  for (size_t i = 0; i < sizeof digest_oids / sizeof digest_oids[0]; i++)
    if (EVP_MD_is_a(md, digest_oids[i].name)) return &digest_oids[i];
  return NULL;
}

/* Writes the DigestInfo prefix for oid and a hash of hash_length bytes;
 * returns its length. */
static size_t digest_info_prefix(unsigned char *out, const digest_oid *oid, size_t hash_length) {
  size_t algorithm_length = 2 + oid->length + 2; /* OID TLV, NULL TLV */
  size_t i = 0;
  out[i++] = 0x30; /* SEQUENCE DigestInfo */
  out[i++] = (unsigned char)(2 + algorithm_length + 2 + hash_length);
  out[i++] = 0x30; /* SEQUENCE AlgorithmIdentifier */
  out[i++] = (unsigned char)algorithm_length;
  out[i++] = 0x06; /* OBJECT IDENTIFIER */
  out[i++] = oid->length;
  memcpy(out + i, oid->bytes, oid->length);
  i += oid->length;
  out[i++] = 0x05; /* NULL parameters */
  out[i++] = 0x00;
  out[i++] = 0x04; /* OCTET STRING digest */
  out[i++] = (unsigned char)hash_length;
  return i;
}

static int raw_digest(const EVP_MD *md) {
  return md == NULL || EVP_MD_is_a(md, "MD5-SHA1");
}

int crisp_rsa_pkcs1_digest_known(const EVP_MD *md) {
  return raw_digest(md) || find_oid(md) != NULL;
}

size_t crisp_rsa_pkcs1_algorithm_id(const EVP_MD *md, unsigned char *out) {
  const digest_oid *oid = md ? find_oid(md) : NULL;
  if (!oid || !oid->pkcs1_arc) return 0;
  /* SEQUENCE { OID 1.2.840.113549.1.1.X, NULL } */
  static const unsigned char head[] = {0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86,
                                       0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01};
  memcpy(out, head, sizeof head);
  out[sizeof head] = oid->pkcs1_arc;
  out[sizeof head + 1] = 0x05;
  out[sizeof head + 2] = 0x00;
  return sizeof head + 3;
}

/* out = tag, length, content; every length here is below 128, so the
 * short form. Returns what was written. */
static size_t der_wrap(unsigned char *out, unsigned char tag, const unsigned char *content, size_t length) {
  out[0] = tag;
  out[1] = (unsigned char)length;
  memmove(out + 2, content, length);
  return 2 + length;
}

/* AlgorithmIdentifier { OID, NULL }: RFC 4055's sha1Identifier,
 * sha256Identifier and the others carry NULL parameters. */
static size_t hash_algorithm_id(const digest_oid *oid, unsigned char *out) {
  unsigned char content[2 + sizeof oid->bytes + 2];
  size_t length = der_wrap(content, 0x06, oid->bytes, oid->length);
  content[length++] = 0x05;
  content[length++] = 0x00;
  return der_wrap(out, 0x30, content, length);
}

size_t crisp_rsa_pss_algorithm_id(const EVP_MD *md, const EVP_MD *mgf1, size_t salt_length,
                                  unsigned char *out) {
  /* id-RSASSA-PSS 1.2.840.113549.1.1.10 and id-mgf1 1.2.840.113549.1.1.8 */
  static const unsigned char pss_oid[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a};
  static const unsigned char mgf1_oid[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08};
  enum { DEFAULT_SALT_LENGTH = 20, SALT_LENGTH_MAX = 0xffff };
  const digest_oid *hash = find_oid(md), *mask = find_oid(mgf1);
  if (!hash || !mask || salt_length > SALT_LENGTH_MAX) return 0;
  unsigned char parameters[CRISP_RSA_PSS_ALGORITHM_ID_SIZE], field[CRISP_RSA_PSS_ALGORITHM_ID_SIZE],
      inner[CRISP_RSA_PSS_ALGORITHM_ID_SIZE];
  size_t length = 0;
  /* RSASSA-PSS-params ::= SEQUENCE { [0] hashAlgorithm, [1]
   * maskGenAlgorithm, [2] saltLength, [3] trailerField }, each EXPLICIT
   * and each absent when it equals its DEFAULT. */
  if (!EVP_MD_is_a(md, "SHA1")) {
    size_t n = hash_algorithm_id(hash, inner);
    length += der_wrap(parameters + length, 0xa0, inner, n);
  }
  if (!EVP_MD_is_a(mgf1, "SHA1")) {
    size_t n = der_wrap(inner, 0x06, mgf1_oid, sizeof mgf1_oid);
    n += hash_algorithm_id(mask, inner + n);
    n = der_wrap(field, 0x30, inner, n);
    length += der_wrap(parameters + length, 0xa1, field, n);
  }
  if (salt_length != DEFAULT_SALT_LENGTH) {
    /* INTEGER: big-endian, fewest bytes, a leading zero byte when the top
     * bit would otherwise be set. */
    unsigned char integer[3];
    size_t n = 0;
    if (salt_length > 0x7fff) integer[n++] = (unsigned char)(salt_length >> 16);
    if (salt_length > 0x7f) integer[n++] = (unsigned char)(salt_length >> 8);
    integer[n++] = (unsigned char)salt_length;
    n = der_wrap(field, 0x02, integer, n);
    length += der_wrap(parameters + length, 0xa2, field, n);
  }
  size_t n = der_wrap(inner, 0x06, pss_oid, sizeof pss_oid);
  n += der_wrap(inner + n, 0x30, parameters, length);
  return der_wrap(out, 0x30, inner, n);
}

int crisp_rsa_pkcs1_encode(unsigned char *em, size_t em_length, const EVP_MD *md, const unsigned char *hash,
                           size_t hash_length) {
  unsigned char prefix[DIGEST_INFO_MAX_PREFIX];
  size_t prefix_length = 0;
  if (!raw_digest(md)) {
    const digest_oid *oid = find_oid(md);
    if (!oid) return CRISP_PROV_R_BAD_PARAMETER;
    if (hash_length != (size_t)EVP_MD_get_size(md)) return CRISP_PROV_R_BAD_INPUT_LENGTH;
    prefix_length = digest_info_prefix(prefix, oid, hash_length);
  } else if (md && hash_length != (size_t)EVP_MD_get_size(md)) {
    return CRISP_PROV_R_BAD_INPUT_LENGTH;
  }
  size_t t_length = prefix_length + hash_length;
  if (t_length + 11 > em_length) return CRISP_PROV_R_BAD_INPUT_LENGTH; /* at least 8 bytes of FF */
  size_t padding = em_length - 3 - t_length;
  em[0] = 0x00;
  em[1] = 0x01;
  memset(em + 2, 0xff, padding);
  em[2 + padding] = 0x00;
  memcpy(em + 3 + padding, prefix, prefix_length);
  memcpy(em + 3 + padding + prefix_length, hash, hash_length);
  return 0;
}

/* mask[0..length) ^= MGF1(seed) */
static int mgf1_xor(unsigned char *mask, size_t length, const EVP_MD *mgf1, const unsigned char *seed,
                    size_t seed_length) {
  unsigned char block[EVP_MAX_MD_SIZE];
  EVP_MD_CTX *context = EVP_MD_CTX_new();
  size_t block_length = (size_t)EVP_MD_get_size(mgf1);
  int ok = context != NULL;
  for (uint32_t counter = 0, done = 0; ok && done < length; counter++) {
    unsigned char counter_bytes[4] = {(unsigned char)(counter >> 24), (unsigned char)(counter >> 16),
                                      (unsigned char)(counter >> 8), (unsigned char)counter};
    ok = EVP_DigestInit_ex(context, mgf1, NULL) && EVP_DigestUpdate(context, seed, seed_length) &&
         EVP_DigestUpdate(context, counter_bytes, 4) && EVP_DigestFinal_ex(context, block, NULL);
    for (size_t i = 0; ok && i < block_length && done < length; i++) mask[done++] ^= block[i];
  }
  EVP_MD_CTX_free(context);
  OPENSSL_cleanse(block, sizeof block);
  return ok;
}

/* H = Hash(00 x 8 || mHash || salt) */
static int pss_hash(unsigned char *out, const EVP_MD *md, const unsigned char *hash, size_t hash_length,
                    const unsigned char *salt, size_t salt_length) {
  static const unsigned char zeros[8] = {0};
  EVP_MD_CTX *context = EVP_MD_CTX_new();
  int ok = context && EVP_DigestInit_ex(context, md, NULL) && EVP_DigestUpdate(context, zeros, 8) &&
           EVP_DigestUpdate(context, hash, hash_length) && EVP_DigestUpdate(context, salt, salt_length) &&
           EVP_DigestFinal_ex(context, out, NULL);
  EVP_MD_CTX_free(context);
  return ok;
}

long crisp_rsa_pss_max_salt(size_t modulus_bits, size_t hash_length) {
  size_t em_length = (modulus_bits - 1 + 7) / 8;
  return (long)em_length - (long)hash_length - 2;
}

int crisp_rsa_pss_encode(OSSL_LIB_CTX *libctx, unsigned char *em, size_t k, size_t modulus_bits,
                         const EVP_MD *md, const EVP_MD *mgf1, const unsigned char *hash,
                         size_t salt_length) {
  size_t em_bits = modulus_bits - 1, em_length = (em_bits + 7) / 8;
  size_t hash_length = (size_t)EVP_MD_get_size(md);
  long max_salt = crisp_rsa_pss_max_salt(modulus_bits, hash_length);
  if (max_salt < 0 || (long)salt_length > max_salt) return CRISP_PROV_R_SALT_TOO_LONG;
  memset(em, 0, k);
  unsigned char *out = em + (k - em_length); /* a leading zero byte when em_bits % 8 == 0 */
  size_t db_length = em_length - hash_length - 1;
  unsigned char *db = out, *h = out + db_length;
  unsigned char *salt = db + db_length - salt_length;
  if (salt_length > 0 && RAND_bytes_ex(libctx, salt, salt_length, 0) <= 0) return CRISP_PROV_R_KERNEL_FAILED;
  if (!pss_hash(h, md, hash, hash_length, salt, salt_length)) return CRISP_PROV_R_KERNEL_FAILED;
  db[db_length - salt_length - 1] = 0x01;
  if (!mgf1_xor(db, db_length, mgf1, h, hash_length)) return CRISP_PROV_R_KERNEL_FAILED;
  db[0] &= (unsigned char)(0xff >> (8 * em_length - em_bits));
  out[em_length - 1] = 0xbc;
  return 0;
}

int crisp_rsa_pss_verify(const unsigned char *em, size_t k, size_t modulus_bits, const EVP_MD *md,
                         const EVP_MD *mgf1, const unsigned char *hash, long salt_length) {
  size_t em_bits = modulus_bits - 1, em_length = (em_bits + 7) / 8;
  size_t hash_length = (size_t)EVP_MD_get_size(md);
  if (crisp_rsa_pss_max_salt(modulus_bits, hash_length) < 0) return CRISP_PROV_R_SALT_TOO_LONG;
  for (size_t i = 0; i < k - em_length; i++)
    if (em[i] != 0) return CRISP_PROV_R_BAD_SIGNATURE;
  const unsigned char *in = em + (k - em_length);
  unsigned char top_mask = (unsigned char)(0xff << (8 - (8 * em_length - em_bits)));
  if (in[em_length - 1] != 0xbc || (in[0] & top_mask) != 0) return CRISP_PROV_R_BAD_SIGNATURE;
  size_t db_length = em_length - hash_length - 1;
  const unsigned char *h = in + db_length;
  unsigned char *db = OPENSSL_malloc(db_length);
  if (!db) return CRISP_PROV_R_NO_MEMORY;
  memcpy(db, in, db_length);
  int reason = CRISP_PROV_R_BAD_SIGNATURE;
  if (!mgf1_xor(db, db_length, mgf1, h, hash_length)) {
    reason = CRISP_PROV_R_KERNEL_FAILED;
    goto done;
  }
  db[0] &= (unsigned char)~top_mask;
  size_t one = 0;
  while (one < db_length && db[one] == 0) one++;
  if (one == db_length || db[one] != 0x01) goto done;
  size_t found_salt = db_length - one - 1;
  if (salt_length >= 0 && found_salt != (size_t)salt_length) goto done;
  unsigned char expected[EVP_MAX_MD_SIZE];
  if (!pss_hash(expected, md, hash, hash_length, db + one + 1, found_salt)) {
    reason = CRISP_PROV_R_KERNEL_FAILED;
    goto done;
  }
  if (CRYPTO_memcmp(expected, h, hash_length) == 0) reason = 0;
done:
  OPENSSL_clear_free(db, db_length);
  return reason;
}
