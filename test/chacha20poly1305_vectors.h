/* test/chacha20poly1305_vectors.h - published answers: RFC 8439 (2.3.2,
 * 2.4.2, 2.6.2, 2.8.2, A.1, A.2, A.4, A.5) and draft-irtf-cfrg-xchacha
 * (2.2.1 HChaCha20, A.3.1 AEAD), as hex. */
#ifndef CRISP_TEST_CHACHA20POLY1305_VECTORS_H
#define CRISP_TEST_CHACHA20POLY1305_VECTORS_H

#include <stdint.h>

static const char sunscreen[] =
    "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen "
    "would be it.";
static const char ietf_text[] =
    "Any submission to the IETF intended by the Contributor for publication as all or part of an IETF "
    "Internet-Draft or RFC and any statement made within the context of an IETF activity is considered an "
    "\"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as written and "
    "electronic communications made at any time or place, which are addressed to";
static const char jabberwocky[] =
    "'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\nAll mimsy were the borogoves,\n"
    "And the mome raths outgrabe.";
static const char internet_drafts[] =
    "Internet-Drafts are draft documents valid for a maximum of six months and may be updated, replaced, or "
    "obsoleted by other documents at any time. It is inappropriate to use Internet-Drafts as reference "
    "material or to cite them other than as /\xe2\x80\x9cwork in progress./\xe2\x80\x9d";

#define KEY_00_1F "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define KEY_80_9F "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
#define KEY_ZERO "0000000000000000000000000000000000000000000000000000000000000000"
#define KEY_ONE "0000000000000000000000000000000000000000000000000000000000000001"
#define KEY_JABBER "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"

/* ChaCha20 keystream XORed into a text (NULL text: zero bytes of the
 * answer's length). */
static const struct {
  const char *where, *key, *nonce;
  uint32_t counter;
  const char *text, *out;
} chacha20_vectors[] = {
    {"2.3.2", KEY_00_1F, "000000090000004a00000000", 1, NULL,
     "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd"
     "1de164eb9cbd083e8a2503c4e"},
    {"2.4.2", KEY_00_1F, "000000000000004a00000000", 1, sunscreen,
     "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b3571639d62"
     "4e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab77937365af90bbf74a35b"
     "e6b40b8eedf2785e42874d"},
    {"2.6.2", KEY_80_9F, "000000000001020304050607", 0, NULL,
     "8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646"},
    {"A.1 #1", KEY_ZERO, "000000000000000000000000", 0, NULL,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f"
     "41518a11cc387b669b2ee6586"},
    {"A.1 #2", KEY_ZERO, "000000000000000000000000", 1, NULL,
     "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed29b721769ce64e43d57133b074d839d531ed1f2"
     "8510afb45ace10a1f4b794d6f"},
    {"A.1 #3", KEY_ONE, "000000000000000000000000", 1, NULL,
     "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a8eca00bbb4a73bdad192b5c42f73f2fd4e27364"
     "4c8b36125a64addeb006c13a0"},
    {"A.1 #4", "00ff000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000",
     2, NULL,
     "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca13b25aa26cb4a648cb9b9d1be65b2c0924a66c5"
     "4d545ec1b7374f4872e99f096"},
    {"A.1 #5", KEY_ZERO, "000000000000000000000002", 0, NULL,
     "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c78a970e0e955c14f3a88e741b97c286f75f8fc29"
     "9e8148362fa198a39531bed6d"},
    {"A.2 #1", KEY_ZERO, "000000000000000000000000", 0, NULL,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f"
     "41518a11cc387b669b2ee6586"},
    {"A.2 #2", KEY_ONE, "000000000000000000000002", 1, ietf_text,
     "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec2a97948bd3722915c8f3d337f7d370050e9e96d"
     "647b7c39f56e031ca5eb6250d4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e52795042bdfa7773d8a9"
     "051447b3291ce1411c680465552aa6c405b7764d5e87bea85ad00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43a"
     "bf937d3259dc4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b0871cdac638939e25e8a1e0ef9d5"
     "280fa8ca328b351c3c765989cbcf3daa8b6ccc3aaf9f3979c92b3720fc88dc95ed84a1be059c6499b9fda236e7e818b04b0bc39"
     "c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5"
     "bce0911934fda79a86f6e698ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab7ac61dd29c6f21ba5"
     "b862f3730e37cfdc4fd806c22f221"},
    {"A.2 #3", KEY_JABBER, "000000000000000000000002", 42, jabberwocky,
     "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf166d3df2d721caf9b21e5fb14c616871fd84c54"
     "f9d65b283196c7fe4f60553ebf39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f7704c6a8d1bcd1bf"
     "4d50d6154b6da731b187b58dfd728afa36757a797ac188d1"},
    {"A.4 #1", KEY_ZERO, "000000000000000000000000", 0, NULL,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"},
    {"A.4 #2", KEY_ONE, "000000000000000000000002", 0, NULL,
     "ecfa254f845f647473d3cb140da9e87606cb33066c447b87bc2666dde3fbb739"},
    {"A.4 #3", KEY_JABBER, "000000000000000000000002", 0, NULL,
     "965e3bc6f9ec7ed9560808f4d229f94b137ff275ca9b3fcbdd59deaad23310ae"},
};

/* AEADs: nonce 12 bytes (ChaCha20-Poly1305) or 24 (XChaCha20-Poly1305). */
static const struct {
  const char *where, *key, *nonce, *ad, *text, *ct, *tag;
} aead_vectors[] = {
    {"2.8.2", KEY_80_9F, "070000004041424344454647", "50515253c0c1c2c3c4c5c6c7", sunscreen,
     "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0"
     "a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a"
     "9de576d26586cec64b6116",
     "1ae10b594f09e26a7e902ecbd0600691"},
    {"A.5", KEY_JABBER, "000000000102030405060708", "f33388860000000000004e91", internet_drafts,
     "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb24c6cfc18755d43eea09ee94e382d26b0bdb7b73"
     "c321b0100d4f03b7f355894cf332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c8559797a06ef4f0ef"
     "61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a"
     "1b0a06c523eaf4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a0bb2316053fa76991955ebd63159"
     "434ecebb4e466dae5a1073a6727627097a1049e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29a6a"
     "d5cb4022b02709b",
     "eead9d67890cbb22392336fea1851f38"},
    {"xchacha A.3.1", KEY_80_9F, "404142434445464748494a4b4c4d4e4f5051525354555657",
     "50515253c0c1c2c3c4c5c6c7", sunscreen,
     "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39ae64c67"
     "08c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff921f9664c97637d"
     "a9768812f615c68b13b52e",
     "c0875924c1c7987947deafd8780acf49"},
};

/* draft-irtf-cfrg-xchacha 2.2.1. */
static const char hchacha20_input[] = "000000090000004a0000000031415927";
static const char hchacha20_subkey[] = "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc";

#endif
