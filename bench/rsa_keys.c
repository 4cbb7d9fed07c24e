/* bench/rsa_keys.c - fixed RSA keys for the rsa_private rows (written by
 * bench/make_rsa_keys.py; regenerate rather than edit). Limbs are
 * little-endian; p > q, e = 65537. */
#include "rsa_keys.h"

static const crisp_limb n2048[32] = {
    0x20c0c1481319b4cbull, 0x52105ab98bc61f14ull, 0x5e9574a4450f30deull, 0xd74a1650ff9d17bdull,
    0x6496bd5809dd64c4ull, 0x225a897c50475b18ull, 0x34fad1345e4af800ull, 0xea646e577d5e46c4ull,
    0x95d1b5bfd478ed7cull, 0x5f4ff5515e3d5688ull, 0x2753a4b27414f740ull, 0xf26f44f4e86739faull,
    0x8eb73cf8372ecf07ull, 0x773df696948f499cull, 0x9fe3c000e28f9c5bull, 0x0425fac559b21ebcull,
    0xc9913851c07e5257ull, 0xc6859cfdef5540f2ull, 0xc7a4df7e90f46eeaull, 0x7bfb450f891841acull,
    0x3b9e565ff9429ba4ull, 0xecf8ff08d5e23f79ull, 0xdcedd82dc0e980b3ull, 0x3430c29d0f970cceull,
    0x78b4e900217eb085ull, 0x4fcfcbd2c75e40ddull, 0x39e2b4bcf9e6400eull, 0x8a23483533ecaa27ull,
    0x8ed8f858aa450d32ull, 0xf639d8c1ca925ae5ull, 0x2af6853d1d5d9d25ull, 0xe894dbce723e4f88ull,
};

static const crisp_limb d2048[32] = {
    0xdb93504c7a1ca359ull, 0x65ed52f52fead283ull, 0xa8245d4e6b8efc74ull, 0x4b32427551d0a999ull,
    0x70ab5636cc53db29ull, 0x11f6369b6774f437ull, 0x0f74219d60a01b67ull, 0xdb70b5f496eb4d49ull,
    0xb7e8f865faa11f48ull, 0x96cee400ca555540ull, 0x8e0fa35e7313aecfull, 0x94eea6a4c1fbd0adull,
    0x53b141f23543e127ull, 0x97a20c487d3a0c03ull, 0x000d9265938be08dull, 0x0af1ccd1e21a3a78ull,
    0x3376f58b7178880cull, 0xe1b9a936d870776dull, 0xe936b4831e8fc870ull, 0xf088dcb104ac3a6bull,
    0xdfc4f2cbf75f66c5ull, 0xe9c0238afc41445dull, 0x15d7fc92c5a86c65ull, 0x98782657a5032e3full,
    0xd6e831a066e1497full, 0x046cffaca05c98b3ull, 0x38ef27f6c4bebb24ull, 0x9326a06f9971045bull,
    0xc8f5a4023c492059ull, 0x8da27eb3c30e515full, 0x6b2c05c4e12724c5ull, 0x1859452db6be193bull,
};

static const crisp_limb p2048[16] = {
    0x7de6d7917adb0345ull, 0x72fd3f9f96bc0deaull, 0x7e1d6faf20115877ull, 0xd326196357c8d202ull,
    0xdbef7ad34c9212fbull, 0x3238b6c37c907f89ull, 0x41ff9e0bb39a3840ull, 0xed9179a0cb2ddd0eull,
    0x459f6d4469a0a7e5ull, 0x7107868ddb45ad18ull, 0x3fb57cd07fc10e1bull, 0xb527a150caf21df7ull,
    0x122ad231ae2d97b1ull, 0xc25af0a3ead1a5c7ull, 0x0bb06b61fbd40486ull, 0xfadda7a2a18a8190ull,
};

static const crisp_limb q2048[16] = {
    0x262f2d24fc92d0cfull, 0xa19820f0bb5117f7ull, 0xf625814a556868acull, 0x559c2f1782847babull,
    0xf80070d16ef3815aull, 0x83baabab942872d7ull, 0x44b0298366c38dabull, 0x790401c30388b93full,
    0xb2f94bb15eb6eaf5ull, 0x572ff67b09d8d1ebull, 0xea12bda6af8e6223ull, 0x7237a5e6e179a307ull,
    0xfbd61f5993432b31ull, 0x1fe97b3ce54572adull, 0xb3d1edb52dcbbee1ull, 0xed576860cf5bde03ull,
};

static const crisp_limb dp2048[16] = {
    0xf6db1e9949d8c49dull, 0xcf0a685fd5480770ull, 0xf7fe926ea2075de9ull, 0xe22f39274b59ada1ull,
    0xc4930b8abae48c6eull, 0x6a5e027dc7968734ull, 0x4afb1340e61ce447ull, 0x1c46852ba9a80c45ull,
    0x66bb7f27e177c0a1ull, 0x9ba20c30c1e8c81eull, 0xa54c6d79ff3e3ef5ull, 0xa989bef3e27f2c65ull,
    0xef434d6cc5303d41ull, 0xcfeb6bdf9f1cdf08ull, 0xc9b1fc8f8a98c8a2ull, 0xcc47e8f526e479c2ull,
};

static const crisp_limb dq2048[16] = {
    0x87bb9e0041f8ba2bull, 0xe09259a65287f223ull, 0xfb1589f3a83c0e28ull, 0xabad73936cef564eull,
    0xf97a12479e7598c2ull, 0x4ed9c3fcfe590f84ull, 0x7905a83298485447ull, 0xbd4512d5def1df5cull,
    0xa695b272c5c50d94ull, 0xca674e2452cba044ull, 0x81bc6cd53e80cf03ull, 0x83ffb51a06ce4968ull,
    0xe74d46e459f308e6ull, 0x9da89f417e9cd32aull, 0x32afcf3a0408b637ull, 0x4b38cfc1171753b7ull,
};

static const crisp_limb qinv2048[16] = {
    0x5a1bf8c8da11c31full, 0x2060f5cfe4810fcfull, 0x8e96be88b3beba27ull, 0x52cf329148186eaaull,
    0x82aecd80d1817cb5ull, 0xf2cec07bad45aca4ull, 0x01c77e433ca88f41ull, 0xbd1e9c018a2f6161ull,
    0x21d981f38562a853ull, 0xb769ea97558e522full, 0xd45ada877789ec94ull, 0xfa737bc50c1e882aull,
    0xce11c8e53235b619ull, 0x82f823d389f56ac8ull, 0x9793b492b787e661ull, 0xd271793ba8651b62ull,
};

static const crisp_limb n3072[48] = {
    0x453ee47e51a0ff2bull, 0xa70b76beb211ddf6ull, 0xcb4211a742c16c5bull, 0xb7e02562070d38b3ull,
    0x78cc65f1a494e469ull, 0xf2cf172aa3ac9819ull, 0xbce588ca5efdce37ull, 0x67c87323a44dea98ull,
    0x479a0b0aa43b9f4dull, 0xf30bdcc5c1515a4aull, 0x74a220f7eda37107ull, 0xd7e290ed36dbfd9full,
    0x69f0cb1b39bdccafull, 0xd2e438be1ec54c8cull, 0x0986999953cb564full, 0xc63df79f50a4770bull,
    0x3ac1afdfb61cbec3ull, 0x1444e20c3e9348f6ull, 0x6058c3d6a9d2d8cdull, 0x2242d53653638e39ull,
    0xa92500de600a8108ull, 0xf5b0fd8e7b5579e4ull, 0xb3a4df90d7f4c673ull, 0xc4e63ab5560808d7ull,
    0xac807d10dcfcfb0aull, 0xd6da94852758d9bbull, 0x97eae7e4f2196d7cull, 0xefea1ed5e9c559caull,
    0x52448b8258212244ull, 0x141ef01d86ca1b96ull, 0x12593a1eb73317ddull, 0xf4c0ae98db424469ull,
    0xccfeca2968fe746bull, 0xf8729e76277216cfull, 0x1362f049394b545dull, 0xfa528cc6950a0d5cull,
    0x0b39594ba8ddfbeeull, 0x44a7df02fc5d7eb3ull, 0x2b22bd4720c7b434ull, 0x2c1b836360997351ull,
    0x596bac1099793c61ull, 0x47ac5049573ceae6ull, 0xe5e3fcf4422202f9ull, 0x435ccf714ec34088ull,
    0x41cab67904d52daaull, 0x68ecca39f0e21d33ull, 0x025de9027fa96f0cull, 0xbe3668bdbe1664a9ull,
};

static const crisp_limb d3072[48] = {
    0xe4b46c9db5c2ca01ull, 0xb91ce2ee9455ec8full, 0x64e1a98e802563b3ull, 0xb191c78c34879bcaull,
    0x70a3d1c7f63db62aull, 0x4cad05c63e527c9cull, 0x9bd15946e40f8392ull, 0xf712c24b17199de0ull,
    0x632bac9d5c5fc708ull, 0x6dccd59b13c9f694ull, 0x5bb77077736e34baull, 0xc21b7d203c794df1ull,
    0xddc0911e2f4a2ea6ull, 0xc30c477799a855b6ull, 0xcd857c59ea16a33eull, 0x9f90ea318efc61e2ull,
    0x4a9591f8f3ec96a6ull, 0x77fe2166ced3a8bbull, 0x2e73cd56733ba76full, 0x6936371867899cbbull,
    0x9ce920f6a8035eccull, 0x1e961c240eb20810ull, 0x1b0240aaa7b287ebull, 0x5731717b2ec7e83dull,
    0x138280ff9a50282bull, 0x2cca330ad3662d8full, 0xf58679ca41d43369ull, 0x836586a9d704b711ull,
    0x073b4dadc62c9015ull, 0x46d9d6ab0b42a0abull, 0x2a9f820a8f143ea4ull, 0xccddb5dda60cc568ull,
    0x56317318e3dee9a6ull, 0x3a4807616c0849b6ull, 0x6a388094a5e35f9dull, 0x2b69b06bc6e2e3b1ull,
    0xee69ca16029bfb67ull, 0x51aebf0c467b22f1ull, 0xc53816ac6ff2d08dull, 0xb4d58a0a44dac796ull,
    0x7de827e58719a93cull, 0xa3bdb37b60e01b5full, 0x843f4bab0b257555ull, 0x0d4a75d8eb1c3ac9ull,
    0x332acf99aff92476ull, 0xae9ded6a1464fc00ull, 0x2e69da52535e05e8ull, 0x58392a399f7a0974ull,
};

static const crisp_limb p3072[24] = {
    0x9b94e363c4ca082bull, 0x63571c91234649d3ull, 0x2e71e1aae31b2166ull, 0x5d28379e8446991cull,
    0xa03c0ac311aa90daull, 0x22e409eaf0e73b9cull, 0x2aa185a52d4260c5ull, 0x804fb9ef71447858ull,
    0xc8d899ce78adf602ull, 0x65afa6800b2c4652ull, 0x8559399f4a46962bull, 0x583c9ccb5e538dc4ull,
    0x82de62c63513dbe8ull, 0x1f6e796531461f78ull, 0x7d856919673160dbull, 0x8d5004f3e855b3fbull,
    0xf1d3be9b404ea4dbull, 0xb012dc4feccdec0bull, 0x98a0f05648631fb7ull, 0x2cecb1b7934e44d6ull,
    0xa9e0a52e452dbbbbull, 0x7735819e2677b6d4ull, 0x6aa22ebb99c9d9c8ull, 0xfa79e57df18c2c7dull,
};

static const crisp_limb q3072[24] = {
    0x4ad90bd729da6501ull, 0x01dd918e6c8e5810ull, 0x91487fb06d765fa2ull, 0xc3e3108dfd36fc48ull,
    0xfc0269033374bebbull, 0x19f19df5b6154077ull, 0x3739b84e711a78baull, 0x53ec28bc764e1168ull,
    0x3454b7b58569e82eull, 0xdc547a2fe76772a0ull, 0xedf061363a28d094ull, 0x258832792ad3b99dull,
    0x63127364627d2b99ull, 0x25f032825cc242fdull, 0x26dd22edbdec3441ull, 0xf038053a37402d24ull,
    0x0e1868c950f69491ull, 0x6423cb65d322b4d7ull, 0x27304d90eee80622ull, 0x562858a619b79520ull,
    0xbd73c1f0976bfc86ull, 0x12a9d951b93aa620ull, 0xfd24a688a6b2d2c0ull, 0xc26848e1a7d0e79eull,
};

static const crisp_limb dp3072[24] = {
    0x2a8c1dc8d4f90cb3ull, 0x4744ff3762ba75c4ull, 0x2e23de4a10530663ull, 0xb8443681a06b9953ull,
    0xa6753850750c1a75ull, 0x69d1f0ebe03632f1ull, 0xbe634b7a19360e85ull, 0xf1c03b6d59fce4d4ull,
    0x3b477d5cc2596410ull, 0x4eff885cfae1e0dcull, 0x12b54622b9377bb3ull, 0x52e23055b2691f1eull,
    0x7a56509e996b7902ull, 0x099da0e8be63d75eull, 0x4088ef143c5793f4ull, 0x861da035c78bad26ull,
    0x31a1585e4d919521ull, 0xe9bea9ddc03c2739ull, 0xa75d98e712852a7aull, 0x72d84ceee59fcfbaull,
    0x5df8ac43fcca4813ull, 0x7319a588292cd74cull, 0x81f96a82881c45f4ull, 0xf0e40cdf7c503875ull,
};

static const crisp_limb dq3072[24] = {
    0x0838cbca63145601ull, 0x90bf70e45c5b87b6ull, 0x323b27b95d5bb4fbull, 0x76d66bc25b464231ull,
    0x2fb499d233318cedull, 0x4ca248f599ae9e9full, 0x8d496b679099f472ull, 0x98dcacec69d77c97ull,
    0xcd41968a430bf414ull, 0x9afe3f37e3628279ull, 0x8ab0ba6ce5571a94ull, 0xae75a2b8a30b75ebull,
    0xe0117f0c70db3419ull, 0x5cf84c6e94a007cfull, 0xf3f57c2206e8b5a8ull, 0x570f38655b1da8a2ull,
    0x70ab0c39929c9a47ull, 0x640dd4edc407f238ull, 0xaa009e39904480a9ull, 0xee3ce96cdf19646dull,
    0x9df1618fee4b571bull, 0x4281d43598287b22ull, 0xcbc9a84eb3a92176ull, 0xb5f6a271048096abull,
};

static const crisp_limb qinv3072[24] = {
    0x459126a29234e585ull, 0x0f100f383be7b77bull, 0xbdf3e4735cd7abf9ull, 0x48be10350859fe0dull,
    0x0de17f7e31e00fa6ull, 0x8d5a4105d1638607ull, 0x5f4892330630d6ffull, 0x7e03443e3baf12f3ull,
    0xd6f04a759638e6d8ull, 0xc10d9bb8498974bdull, 0x30edf097a08c0d09ull, 0xd9629f7b01bc4035ull,
    0x3f02e35f71cc3111ull, 0x55f8503146e719f0ull, 0x6c8cc6cbe9d5f480ull, 0x6796245bdccc8f86ull,
    0x6515174d06baa3ecull, 0xac8ccdec8c2d2effull, 0x819c31f855827568ull, 0x9510ff52d9dc7699ull,
    0x1adba20a64c0a622ull, 0xbac43bb83dc89f7full, 0x4ec96b54ed311243ull, 0xc6ee86dec7c6014full,
};

static const crisp_limb n4096[64] = {
    0xf894b10faaed8349ull, 0xc06e9345138f3e68ull, 0x3fb4ef5b7379d404ull, 0xb41f0d1eb5be20fdull,
    0x5cc4821d5e0ce152ull, 0xf4996be750cd9f88ull, 0xcbcb3f3a9b3b130eull, 0x6667e6709d980b2dull,
    0x1ebb1a1081d40d97ull, 0xcce6d3f9ceb7c490ull, 0xaa82d7a7707fe5b9ull, 0x56000a518a11eb7dull,
    0xa8fb0da998e762c4ull, 0x6c7c0038547359d2ull, 0x2fd628fb83b88834ull, 0x9d0ac8d4dd6bb1d8ull,
    0xec28b64e56a41436ull, 0x9f8f54ac73afa3dcull, 0xb4385a35e22fe4d2ull, 0x9e7f249847a409f8ull,
    0x28ff11ccdc0076daull, 0x3c158c90667cb507ull, 0xab0d748f6f8f262cull, 0x128b8f50e7e3dbf7ull,
    0x7eec332fa7c00919ull, 0xae76fba5faa78fbcull, 0x9deba4038b44f395ull, 0xced0239337013119ull,
    0x566eb3503e3a504aull, 0xead26f7290f2b9d3ull, 0x351898aee9a2e768ull, 0x6f124dc6f4193449ull,
    0x7a1482b3002e6eb3ull, 0x5f7be505d7b47fd0ull, 0x28fa8f2ddbc66f05ull, 0xf969ac159e11b6bcull,
    0xb54fbadb989fbff8ull, 0x6dd82126da3d5639ull, 0x0d7564ad85cb3ab3ull, 0x15ea4ae42dbf54d0ull,
    0xccbb1b32f74ce49full, 0x1e237e48809d4e83ull, 0x1a2497103cb5f4a5ull, 0x75e2219787d38427ull,
    0x196c14060f549901ull, 0x6d60fd216eba62c9ull, 0xaad863a7ca385810ull, 0x0586e6b0c7857144ull,
    0x961ca4844725b8b6ull, 0xd7637d16bc782c0eull, 0x28277f3b415efdf4ull, 0xcc2a1f72db05e6a9ull,
    0x06a0c6bbd426c472ull, 0x858b1e3bc87d165dull, 0x8ed5ec9ac695003dull, 0x85aa9d1b29c65b38ull,
    0x0127fb60016e1cb2ull, 0x114604cd9345d2efull, 0xf0d902eb7281e3cbull, 0x3aabeb92223a5c82ull,
    0xab2bbef55bee145eull, 0x90cf88e3c808b1b0ull, 0xac52581bdee0ed5cull, 0xd971c15a1fbbbef7ull,
};

static const crisp_limb d4096[64] = {
    0x8eaba15c0bf2af51ull, 0x635168eb453c1ed7ull, 0x924c01c428369c5bull, 0xac64b3c0c9d44e1aull,
    0x824ecd4c537ee5cfull, 0x3c61afe5a4f7dc38ull, 0x4dbfb333f9427590ull, 0xcaa839cc8d15c147ull,
    0x403f4cc335267c84ull, 0xd4dd6b858765fa76ull, 0x6c1acdbb01cbcd98ull, 0x3a7e806c55f518a9ull,
    0xc9604e7d0648eb9bull, 0x9ba887c1511f74abull, 0xb51b033e74411d07ull, 0x59abe5d66baacfa7ull,
    0x575ac0f5eb204b4cull, 0x0576f5c01d249668ull, 0x1f4516a918cfa212ull, 0xcded5b9a4c4b15c0ull,
    0xe4386437e5c4c777ull, 0x2c32ee6740532a6eull, 0xa886d35108127a9dull, 0x4178d5cea2781e2bull,
    0x160d9ba4651fb5acull, 0x8f472d4e15bfb8d1ull, 0xc428c6daf9f4030dull, 0xfbf3199eb276c736ull,
    0xc5388b630d111601ull, 0x2339f3dce1fcd2b2ull, 0x1111664af4b01a56ull, 0xb3002ce72090f165ull,
    0xb8f84fd22edbc40eull, 0xbd48b950e6136229ull, 0x6d7bbb1c92d8eb0bull, 0x38ee97ec86826219ull,
    0xef39275f606ca912ull, 0x12e8a5b6ce4f43b5ull, 0x3565d7fd3c619086ull, 0x653624f3f37b6668ull,
    0x0d44ba37d5564ae2ull, 0x9d9c0c78180c9a33ull, 0xbe097aa084b618adull, 0xab52ea3485989b10ull,
    0x5e038e345ee33e41ull, 0xe8c130ec08dd055dull, 0x79442f7f14f66371ull, 0x1e5c4c1e8e7df598ull,
    0xe8e5ad79d1f321ebull, 0xec3f4c980fb7d6faull, 0xb9e14c79e91693faull, 0xfd879f27e71c0462ull,
    0xbc38b68186757fabull, 0x03199feff3c4a070ull, 0x01b269894c4b183bull, 0x70680d0f3dc01610ull,
    0xbb7d0e87c26da646ull, 0xbccbdf3fe9bf0ff2ull, 0x6eaf911276bb6d33ull, 0x431a4fdb661e7d0cull,
    0x447868c88688a545ull, 0x1b80a63396b97d92ull, 0xf7a8ef0e08a9b014ull, 0x58bca4945be8e968ull,
};

static const crisp_limb p4096[32] = {
    0x3a2506d6a2238975ull, 0xa354910d0fb42de9ull, 0xa4e50db8d5b32819ull, 0x707cfb887209b341ull,
    0x72c0668c289429eaull, 0xe573aaa73c55be62ull, 0x3b3202e62697c690ull, 0x6327aeac5cffd991ull,
    0xd898b277623fcc90ull, 0x6af4a4c03aadb665ull, 0xaf5e82b41bdb17a0ull, 0x878e5d5252486b75ull,
    0x849c272d70b68768ull, 0x19dc90fa1c94433bull, 0x118a6114401eef93ull, 0x24a93a8da97ddbcfull,
    0x4a84a963e62fb4e3ull, 0x69a0bf15f1dc7b11ull, 0x9886c2b823c8e714ull, 0x550edbb6bf0a1159ull,
    0x4f506b27b5e1bb62ull, 0x5ebbad241b923c4full, 0xbd9f1fa444a0421dull, 0x1057320837775e34ull,
    0x2d6afa5ca71dc55eull, 0xf16d7d26231a20efull, 0x7b6007f9432d21b0ull, 0x07924e824e8e35d0ull,
    0x1bc0814d7c0ae5a1ull, 0xaf6d7dfb7b1feb33ull, 0xc539644f57c5372cull, 0xf99e651b7f89ba7bull,
};

static const crisp_limb q4096[32] = {
    0xb1fdaec350fe0405ull, 0x14f5364afc2ce258ull, 0x0aec05a987042f41ull, 0xefcc87360d49aa1dull,
    0xd28d69192695caf9ull, 0xa6d3034b0a823991ull, 0xad0e458330d123e6ull, 0x13f420675e2da2d8ull,
    0x129330a905e90699ull, 0x55d84296ddda4fe7ull, 0xdbc842f0235e99e3ull, 0x0ee9cb4b2371564full,
    0x39fbadf3458c5febull, 0x3ec7698f0dd09449ull, 0x95025a038183db12ull, 0xdedfda159b28da6cull,
    0x54f8191f81453527ull, 0x49b79c67033112caull, 0x98514f118c5a8042ull, 0x6630e505555c07f6ull,
    0x36584c7e8e21978full, 0xf652b77f3806ce80ull, 0x6a79328252ba6945ull, 0x450dbfadab7cb0b9ull,
    0x625f946870e1df26ull, 0x77b5e0cf474e5944ull, 0x823af27790cd1a0aull, 0x428940d67afd787dull,
    0x46a46d1c880189b4ull, 0x3f2f14d5b95064abull, 0x6e2eca94db4d0740ull, 0xdf00cc5f535d4f57ull,
};

static const crisp_limb dp4096[32] = {
    0x6c9afed2b1039199ull, 0x50fcfaa28e0ba9bdull, 0x558a39fdd756577aull, 0xbaef802c30526dfaull,
    0x97f2926f056c2baeull, 0xce22779566899942ull, 0xe2db2cada843242cull, 0x4f90082f7fa0dd6bull,
    0x552a8a351f1e3867ull, 0xf26f728689a3b69cull, 0xeb51192314719b38ull, 0xda549f0af2ba86bbull,
    0x00d1d495d26fcf6cull, 0x461d856d9986357aull, 0x592d5e9a36ac7da2ull, 0x6b1e35d293ac09aaull,
    0x7cd214187d9c9285ull, 0xe1615bdea26a7406ull, 0x85d7ac34f1b0718full, 0x97985436649ad59bull,
    0xc1b5ba9e8eceb8b2ull, 0x83bb3500f9a2be84ull, 0x8c3828483aeb0f3aull, 0x66d7c780fe59c008ull,
    0xb9e8f5d0e9e216faull, 0x2c551115f68ab92cull, 0x5ee2e838761a6684ull, 0x45d11e935df3e438ull,
    0x5689281381559050ull, 0x8986f815be809a67ull, 0x904b633ecef3d07bull, 0x3a2156ee666f0e8cull,
};

static const crisp_limb dq4096[32] = {
    0x59dd224da8ef4089ull, 0xe1a3df670d002b64ull, 0x70927009ebffe67cull, 0xe1d51d09187f2770ull,
    0x099364e9f24c704cull, 0x6aa0ea7549472d8aull, 0x2fc410c1220dc919ull, 0x42d259ba0d8ee1e6ull,
    0x33de1aeb7f05ee0full, 0x8b86e91a31303c17ull, 0xa135bd9e67283e79ull, 0x7ab0db5bff9213b9ull,
    0x5d9a518af36cca64ull, 0x0e4fac4f57886807ull, 0x8bd36e2bc8b4007aull, 0xd6b9dfc12d5d6920ull,
    0x88c7678738d649c5ull, 0xee0a8fbffae61116ull, 0x0d74c4da0bf6bb4bull, 0x4a11bd57a2b942e7ull,
    0x7147dd8ff36227fbull, 0x8f360e5e969d2e45ull, 0xc6610aacd38b7715ull, 0xa9284ade9fa0133bull,
    0x8b2f617b6d558e1full, 0xd96123c76c0ae35aull, 0x4ee4ca5a9225574dull, 0x088367fe9ad560d9ull,
    0xe1fc5d4aa6f0d749ull, 0x54c8d4d6a1d4b86full, 0x3761eb2b607b5c7dull, 0xcf6f8cac377d9aaaull,
};

static const crisp_limb qinv4096[32] = {
    0xbead2adb29623338ull, 0x78838ca66207b43cull, 0x4da4415c040d193eull, 0x27d3e9e0318bfe7dull,
    0xaf51130be9c14469ull, 0xa4f2bd652e5a9e82ull, 0xe303aca538d436ffull, 0xb03aa7ba8044d753ull,
    0xff35d188adc71021ull, 0x1cf351ae5352ad53ull, 0x3f6324e1ff9a384cull, 0xfeda5f338586a63bull,
    0x174e0c6784ec4c5eull, 0x20bc457be1b16744ull, 0x980cfff0375b9575ull, 0x65ff9f5e3796c7e7ull,
    0x094e92353c83a969ull, 0xbfccdb3980d68d38ull, 0xbd4ac6c1bb0bcfa3ull, 0x25813ca36651f56eull,
    0x34e564add3a884f0ull, 0xec57d2e7597307eaull, 0xaae6c6c80c5512e7ull, 0x0c9c0ce1202183bfull,
    0xd7ead189ba675367ull, 0x6b661f81142c2363ull, 0xc2e487d4d0750e5full, 0x1e9a3f7cd21c6284ull,
    0xbf45008792252d29ull, 0xa38528b80b538dacull, 0x0dc7023a165f593aull, 0x3a9778b896eff5b6ull,
};

const bench_rsa_key bench_rsa_keys[] = {
    {2048, 16, n2048, d2048, p2048, q2048, dp2048, dq2048, qinv2048},
    {3072, 24, n3072, d3072, p3072, q3072, dp3072, dq3072, qinv3072},
    {4096, 32, n4096, d4096, p4096, q4096, dp4096, dq4096, qinv4096},
};
const size_t bench_rsa_key_count = sizeof bench_rsa_keys / sizeof bench_rsa_keys[0];

const bench_rsa_key *bench_rsa_key_for(size_t bits) {
  for (size_t i = 0; i < bench_rsa_key_count; i++)
    if (bench_rsa_keys[i].bits == bits) return &bench_rsa_keys[i];
  return NULL;
}
