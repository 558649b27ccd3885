/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The published vectors the pk targets are checked against before they
 * are timed, kept as the hex text of their source documents (NIST CAVP
 * files, RFC 7748, RFC 8032) so they can be checked against the page by
 * eye. Where the source signs a hash, msg is what the timed call is given:
 * the digest (ECDSA), or the DigestInfo of the digest (RSA PKCS#1 v1.5,
 * whose timed call pads raw bytes as `openssl speed` does). P-521 numbers
 * are written at their 66-byte width (the CAVP files drop leading zeros).
 */
#include "pk_vec.h"

#include <string.h>

#include <hostbench/crypto.h>

#include "cx.h"
#include "seam.h"

/* A vector as published: hex text, NULL for an absent field. */
struct pk_vector_text {
	const char *source;
	const char *n, *e, *d; /* RSA key */
	const char *priv;      /* private scalar or raw private key */
	const char *pub;       /* 04||x||y or raw public key */
	const char *peer;      /* derivation: the peer's public key */
	const char *msg;       /* what is signed */
	const char *out;       /* signature (canonical) or shared secret */
};

/* clang-format off */
static const struct pk_vector_text texts[PK_V_COUNT] = {
    [PK_V_RSA] = {
	    .source = "NIST CAVP SigVer15_186-3.rsp, mod = 2048, first SHA256 Result = P; msg is DigestInfo(SHA-256(Msg))",
	    .n =
	        "a911245a2cfb33d8ee375df9439f74e669c03a8d9acad25bd27acf3c"
	        "d8bea7eb9dbe470155c7c72782c94861f7b573cd325639fb070e9ba6"
	        "e621991aefa45106182e4d264be7068035595d7549052989b3e7fd04"
	        "cabc94012c1278a0ef8672b1a51dd1a9e276816ba497dea24b4febe3"
	        "dd8e977707bcd230ca6fb6f8a8bff9e6ba24fbadcd93f00126b19b39"
	        "6a38e6ef86d18fef945b9154c1963fb488c7025953511f86d05638bf"
	        "e056493730bc6778446e59cd3c5c3acf07a0a3a64943793652f10e32"
	        "92aa7a6d25a03181cc6f6ba0658d909e59ce2a02bacc9766fd8c4fbd"
	        "4ed9c23a866844b8a794d49e505f9f944870a71aadbe5338039825c2"
	        "dff81af3",
	    .e =
	        "010001",
	    .d =
	        "290d117f97d672f3647c2b24402832b153d22a25820567688645ed95"
	        "ffa6e38d116347486ab4b485c27aef4962653bb60257ef82256785a1"
	        "d3d52aa0e0b94c37279dee7bb308688aaee98108de6f1373ed2c1242"
	        "9c9b8770756c12c03908b346b129f963bfaa38a8937190cc656f057e"
	        "f1a812dd0312f51285c4f46f9241f3028ea6a61db0e9255976469f5d"
	        "5542ced55ee2d6f4afe766c0a70f49871d369dd8f3a82a7141639efd"
	        "4a1f4a4009821c3c2b9f5c5f5eef99a5f00fbd8bc8191a3654e8f8d8"
	        "ce12d90e5ff2a4c530b76306c8c56e0549a6f277ab2af3a60cccbf4b"
	        "b4b2cb47f04f211f8b86aa653bf6913f3b5ed190c51b5958e40597a2"
	        "dfd30061",
	    .msg =
	        "3031300d0609608648016503040201050004205447464988bedf5ab8"
	        "068e0cfd0ea53ae9f0ec7a982f57a5e6cafd3bc1b5f564",
	    .out =
	        "794d0a45bc9fc6febb586e319dfa6924c888594802b9deb9668963fd"
	        "b309bf02817960a7457106fc474f91601436e8954cbb6815350b2c51"
	        "b53c968d2c48cc1799550d5d03b41f6e5a8c3c264d2e2fe0b5b8ff53"
	        "fdcb9dd111c985cb488d7086e6548b4077ec00721c9cb500fe07a031"
	        "c2030e8ad1dd0112c34ffd9091d77a187aac8661b298eee39eb615f9"
	        "715c4c48a6762ede55a466ec7f3cdb6a937cfc80188a85d8f8d3a2a8"
	        "0b199ce5e6375af8f02f06d706a34d9cf38318903965db54aaa7d3fa"
	        "7a7ee58034cd58c8435739c8906366e2ddba293f2fb2c15f07fa4951"
	        "014471e7f677d3bdacffc4c68a906e08d68b39f9010746cbacd22980"
	        "cee73e8d",
	},
    [PK_V_ECDSA_P256] = {
	    .source = "NIST CAVP FIPS 186-3 SigVer.rsp [P-256,SHA-256] first Result = P; msg is SHA-256(Msg)",
	    .pub =
	        "04e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e"
	        "12f49abf3c970eed7aa2bc48651545949de1dddaf0127e5965ac85d1"
	        "243d6f60e7dfaee927",
	    .msg =
	        "d1b8ef21eb4182ee270638061063a3f3c16c114e33937f69fb232cc8"
	        "33965a94",
	    .out =
	        "bf96b99aa49c705c910be33142017c642ff540c76349b9dab72f981f"
	        "d9347f4f17c55095819089c2e03b9cd415abdf12444e323075d98f31"
	        "920b9e0f57ec871c",
	},
    [PK_V_ECDSA_P384] = {
	    .source = "NIST CAVP FIPS 186-3 SigVer.rsp [P-384,SHA-384] first Result = P; msg is SHA-384(Msg)",
	    .pub =
	        "04cb908b1fd516a57b8ee1e14383579b33cb154fece20c5035e2b376"
	        "5195d1951d75bd78fb23e00fef37d7d064fd9af144cd99c46b585740"
	        "1ddcff2cf7cf822121faf1cbad9a011bed8c551f6f59b2c360f79bfb"
	        "e32adbcaa09583bdfdf7c374bb",
	    .msg =
	        "965b83f5d34f7443eb88e78fcc23479156c9cb0080dd68334dac0ad3"
	        "3ba8c774100e440063db28b40b51ac37705d4d70",
	    .out =
	        "33f64fb65cd6a8918523f23aea0bbcf56bba1daca7aff817c8791dc9"
	        "2428d605ac629de2e847d43cee55ba9e4a0e83ba4428bb478a43ac73"
	        "ecd6de51ddf7c28ff3c2441625a081714337dd44fea8011bae71959a"
	        "10947b6ea33f77e128d3c6ae",
	},
    [PK_V_ECDSA_P521] = {
	    .source = "NIST CAVP FIPS 186-3 SigVer.rsp [P-521,SHA-512] first Result = P; msg is SHA-512(Msg)",
	    .pub =
	        "040153eb2be05438e5c1effb41b413efc2843b927cbf19f0bc9cc14b"
	        "693eee26394a0d8880dc946a06656bcd09871544a5f15c7a1fa68e00"
	        "cdc728c7cfb9c4480348670143ae8eecbce8fcf6b16e6159b2970a9c"
	        "eb32c17c1d878c09317311b7519ed5ece3374e7929f338ddd0ec0522"
	        "d81f2fa4fa47033ef0c0872dc049bb89233eef9bc1",
	    .msg =
	        "97ff5a81fc88f7ddd3bc58154ffd2695912fe50ce7c63b62bd798fb6"
	        "73c6aa49f54bc7301fb7bddc6edc51b7e0d0b4dec9f80851fff02a33"
	        "671ad9a406bbabe5",
	    .out =
	        "00dd633947446d0d51a96a0173c01125858abb2bece670af922a92de"
	        "dcec067136c1fa92e5fa73d7116ac9c1a42b9cb642e4ac19310b049e"
	        "48c53011ffc6e7461c3600efbdc6a414bb8d663bb5cdb7c586bccfe7"
	        "589049076f98cee82cdb5d203fddb2e0ffb77954959dfa5ed0de850e"
	        "42a86f5a63c5a6592e9b9b8bd1b40557b9cd0cc0",
	},
    [PK_V_ECDH_P256] = {
	    .source = "NIST CAVP KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_init.fax P-256 COUNT = 2 (Result = P)",
	    .priv =
	        "8087ab163864bfa81001c72f736b6d94e7612559ac4c847d06ba2171"
	        "840684d6",
	    .pub =
	        "04e8b020e8c3cc25d3e5e83e76077f3d5ccdabd7ad76121b724a1714"
	        "14e73f793c98dfb6863fbdbc1d2083f6c41e502645ae9b7a0fdb3890"
	        "4f7483ef883bc2a57b",
	    .peer =
	        "045a3955c54a49645ed818f3774ea10971a1db88c370d8966c5a6e88"
	        "234ed5d82003b13f0dad73f64532f42b8b2fa6d1450d9ab24896e95c"
	        "24674298f2da07ccda",
	    .out =
	        "0cb890a0dcc277c3dde0f91b4322a32e6365d7ec85316185d3286b49"
	        "77849410",
	},
    [PK_V_ECDH_P384] = {
	    .source = "NIST CAVP KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_init.fax P-384 COUNT = 0 (Result = P)",
	    .priv =
	        "f865418473e5bf7d2e1bbcd9bd5a9270c003a9dd35e778133ca59fca"
	        "b4bb64fe24d6800e7047bdd033abc8bfa8db35b5",
	    .pub =
	        "0432b72ab9b558249dcbc6cbade234f58e4f7aa5d3f6420ea99a5f99"
	        "7e8c2a91fb7fd83779d0d2169428683771c745fd1ac749e02a3719bb"
	        "56bf1dfc4ba3820309c01ab6e84cb29db7cdd80f127233f5295687f8"
	        "178f3a8704c1063b84c2ee472f",
	    .peer =
	        "04d1bf2ac21637d66d6398aac01dcd56ac6f065fb45d1f6f16747bab"
	        "9e9b01b4630b59b20927aea147355bf41838acb4824c9e23f1c5a416"
	        "47d094086bf4ed31708651f21d996c47780688ac10f77deee2e43b52"
	        "41b6caecd2fd5444bc50472e0e",
	    .out =
	        "a781430e6078a179df3f9ee27cd8fdc6188f161b6c4ccc4053ef6c6c"
	        "a6fc222946883a53c06db08f0a020023ced055aa",
	},
    [PK_V_ECDH_P521] = {
	    .source = "NIST CAVP KASValidityTest_ECCStaticUnified_NOKC_ZZOnly_init.fax P-521 COUNT = 1 (Result = P)",
	    .priv =
	        "01a23de55fb7ad153e7e65d21ad10c77fdf2072b2a5aa116aaf1bc31"
	        "a345420c1fe8eaccbbcdeb07b73ba2fa706c7498e3a4828f348b00af"
	        "9df1551780e709a7754c",
	    .pub =
	        "0400ed7bc3a95ef74dc3a9893a5ec7c9fab723c16dc21b30341c374c"
	        "25e1334dada7f92d62967f3bca4da70b0a77fa0732dac05a3d19cb04"
	        "e50b3cd1894549ac1d3c6e01c30d23ea4c140aabfba3753ce40c7880"
	        "10342c15c51d2dd6e9b079194e593ba965ea419ef37746f954027fa1"
	        "b8159ccd3b54aece67451c7e892d6f6e1fb44c548c",
	    .peer =
	        "0401474af758238005238b2fa253c4f9c557de664d64c66d7d88f334"
	        "555997591ccc242ff3c6d0e34d07fc835aaae024c2bd21f2ba5c0b0a"
	        "8ac3fdd90e1c479cb8e53800a721b04654204ca19064b37a4abf4247"
	        "413a6d29e9211a0df9d50975c7d8d4654dc04a478455ea24993f0fef"
	        "5460f189c4729c15fba385fd85ef42ae7610e39450",
	    .out =
	        "01e8ff7a8c57b017f8b8266adab65fe2c417173566087e15c5fc9720"
	        "71cc560ac93908a806468bc44b8312a8a48464886ca0d767db938447"
	        "387a348f3f56c6463796",
	},
    [PK_V_X25519] = {
	    .source = "RFC 7748 section 5.2, X25519 first vector",
	    .priv =
	        "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244"
	        "ba449ac4",
	    .peer =
	        "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6"
	        "d0ab1c4c",
	    .out =
	        "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b40755"
	        "77a28552",
	},
    [PK_V_X448] = {
	    .source = "RFC 7748 section 5.2, X448 first vector",
	    .priv =
	        "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121"
	        "700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
	    .peer =
	        "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9"
	        "814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
	    .out =
	        "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239f"
	        "e14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f",
	},
    [PK_V_ED25519] = {
	    .source = "RFC 8032 section 7.1 TEST 1",
	    .priv =
	        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac03"
	        "1cae7f60",
	    .pub =
	        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68"
	        "f707511a",
	    .msg = "",
	    .out =
	        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065"
	        "224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24"
	        "655141438e7a100b",
	},
    [PK_V_ED448] = {
	    .source = "RFC 8032 section 7.4 1 octet",
	    .priv =
	        "c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00ac"
	        "da2c463afbea67c5e8d2877c5e3bc397a659949ef8021e954e0a1227"
	        "4e",
	    .pub =
	        "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c"
	        "6798c0866aea01eb00742802b8438ea4cb82169c235160627b4c3a94"
	        "80",
	    .msg =
	        "03",
	    .out =
	        "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd008"
	        "7810f4352541b143c4b981b7e18f62de8ccdf633fc1bf037ab7cd779"
	        "805e0dbcc0aae1cbcee1afb2e027df36bc04dcecbf154336c19f0af7"
	        "e0a6472905e799f1953d2a0ff3348ab21aa4adafd1d234441cf807c0"
	        "3a00",
	},
};
/* clang-format on */

/* Which vector checks p. */
static enum pk_vector_id vector_of(const struct pk_params *p)
{
	static const enum pk_vector_id by_curve[][2] = {
		[PK_P256] = { PK_V_ECDSA_P256, PK_V_ECDH_P256 },
		[PK_P384] = { PK_V_ECDSA_P384, PK_V_ECDH_P384 },
		[PK_P521] = { PK_V_ECDSA_P521, PK_V_ECDH_P521 },
		[PK_X25519] = { PK_V_COUNT, PK_V_X25519 },
		[PK_X448] = { PK_V_COUNT, PK_V_X448 },
		[PK_ED25519] = { PK_V_ED25519, PK_V_COUNT },
		[PK_ED448] = { PK_V_ED448, PK_V_COUNT },
	};

	if (p->kind == PK_RSA)
		return PK_V_RSA;
	if (p->curve == PK_NO_CURVE)
		return PK_V_COUNT;
	return by_curve[p->curve][p->kind == PK_ECDH];
}

/* Decode one field; -1 when malformed. */
static int field(const char *hex, uint8_t *buf, size_t max, const uint8_t **at,
		 size_t *len)
{
	if (hb_crypto_unhex(hex, buf, max, len))
		return -1;
	*at = hex ? buf : NULL;
	return 0;
}

int pk_vector_load(const struct pk_params *p, struct pk_vector *v)
{
	enum pk_vector_id id = vector_of(p);
	const struct pk_vector_text *t;
	struct pk_keydata *k = &v->key;

	memset(v, 0, sizeof(*v));
	if (id >= PK_V_COUNT)
		return -1;
	t = &texts[id];
	v->source = t->source;
	if (field(t->n, v->n, sizeof(v->n), &k->n, &k->n_len) ||
	    field(t->e, v->e, sizeof(v->e), &k->e, &k->e_len) ||
	    field(t->d, v->d, sizeof(v->d), &k->d, &k->d_len) ||
	    field(t->priv, v->priv, sizeof(v->priv), &k->priv, &k->priv_len) ||
	    field(t->pub, v->pub, sizeof(v->pub), &k->pub, &k->pub_len) ||
	    field(t->peer, v->peer, sizeof(v->peer), &v->peer_key.pub,
		  &v->peer_key.pub_len) ||
	    hb_crypto_unhex(t->msg, v->msg, sizeof(v->msg), &v->msg_len) ||
	    hb_crypto_unhex(t->out, v->out, sizeof(v->out), &v->out_len))
		return -1;
	cx_seam_known_answer(v->out, v->out_len);
	return 0;
}
