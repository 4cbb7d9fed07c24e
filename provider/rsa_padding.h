/* provider/rsa_padding.h - the signature encodings of RFC 8017:
 * EMSA-PKCS1-v1_5 (section 9.2) and EMSA-PSS (section 9.1) with MGF1.
 * Each returns 0 on success or a CRISP_PROV_R_* reason. */
#ifndef CRISP_PROVIDER_RSA_PADDING_H
#define CRISP_PROVIDER_RSA_PADDING_H

#include <stddef.h>

#include <openssl/evp.h>

/* em[0..em_length) = 00 01 FF..FF 00 T, where T is the DigestInfo of
 * hash under md, or hash itself when md is NULL or MD5-SHA1 (which has no
 * DigestInfo). */
int crisp_rsa_pkcs1_encode(unsigned char *em, size_t em_length, const EVP_MD *md, const unsigned char *hash,
                           size_t hash_length);

/* The DER AlgorithmIdentifier of PKCS#1 v1.5 RSA with md (what X.509
 * puts in a certificate) into out[0..CRISP_RSA_ALGORITHM_ID_SIZE); its
 * length, or 0 when there is none here. */
enum { CRISP_RSA_ALGORITHM_ID_SIZE = 15 };
size_t crisp_rsa_pkcs1_algorithm_id(const EVP_MD *md, unsigned char *out);

/* The DER AlgorithmIdentifier of RSASSA-PSS (RFC 8017 appendix A.2.3,
 * RFC 4055 section 3.1) with hash md, MGF1 over mgf1 and salt_length into
 * out[0..CRISP_RSA_PSS_ALGORITHM_ID_SIZE): parameters equal to the defaults
 * (SHA-1, MGF1 with SHA-1, 20, trailer field 1) are left out as DER wants;
 * its length, or 0 when a digest has no OID here. */
enum { CRISP_RSA_PSS_ALGORITHM_ID_SIZE = 80 };
size_t crisp_rsa_pss_algorithm_id(const EVP_MD *md, const EVP_MD *mgf1, size_t salt_length,
                                  unsigned char *out);

/* Whether md has a DigestInfo encoding here (or needs none). */
int crisp_rsa_pkcs1_digest_known(const EVP_MD *md);

/* em[0..k) = the PSS encoding of hash for a modulus of modulus_bits bits,
 * with a random salt of salt_length bytes from libctx, left-padded with a
 * zero byte when modulus_bits - 1 is a multiple of 8. */
int crisp_rsa_pss_encode(OSSL_LIB_CTX *libctx, unsigned char *em, size_t k, size_t modulus_bits,
                         const EVP_MD *md, const EVP_MD *mgf1, const unsigned char *hash, size_t salt_length);

/* Checks em[0..k) (the public operation's output) against hash; a
 * negative salt_length accepts any salt length. */
int crisp_rsa_pss_verify(const unsigned char *em, size_t k, size_t modulus_bits, const EVP_MD *md,
                         const EVP_MD *mgf1, const unsigned char *hash, long salt_length);

/* The longest salt a modulus of modulus_bits allows with an hash_length
 * digest (negative when the digest itself does not fit). */
long crisp_rsa_pss_max_salt(size_t modulus_bits, size_t hash_length);

#endif
