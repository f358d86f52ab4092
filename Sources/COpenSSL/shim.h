// OpenSSL's libcrypto: only the EVP digest interface (SHA-256 for cache file names).
#include <openssl/evp.h>
