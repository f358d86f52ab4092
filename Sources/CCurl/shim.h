// libcurl for Swift. curl_easy_setopt, curl_easy_getinfo and
// curl_multi_setopt are variadic, which Swift cannot call: these typed
// wrappers fix one argument type each. libcurl reports every failure by
// return code (it never longjmps), so Swift may call it directly.
#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>

static inline CURLcode magpie_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode magpie_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode magpie_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode magpie_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode magpie_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_OPENSOCKETFUNCTION (NULL restores curl's own).
static inline CURLcode magpie_curl_setopt_opensocket(CURL *handle, curl_opensocket_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

/// What an open-socket callback returns to refuse the connection.
static const curl_socket_t magpie_curl_socket_bad = CURL_SOCKET_BAD;

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode magpie_curl_setopt_write_callback(CURL *handle, CURLoption option,
                                                         curl_write_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode magpie_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode magpie_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode magpie_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

/// CURLAUTH_* as plain longs (the macros' casts do not reach Swift).
static const long magpie_curlauth_basic = (long)CURLAUTH_BASIC;
static const long magpie_curlauth_digest = (long)CURLAUTH_DIGEST;
static const long magpie_curlauth_negotiate = (long)CURLAUTH_NEGOTIATE;

/// Whether this libcurl can answer Negotiate (SPNEGO) challenges.
static inline int magpie_curl_has_spnego(void) {
  return (curl_version_info(CURLVERSION_NOW)->features & CURL_VERSION_SPNEGO) != 0;
}

static inline CURLcode magpie_curl_setopt_share(CURL *handle, CURLSH *share) {
  return curl_easy_setopt(handle, CURLOPT_SHARE, share);
}

// A cookie share for one loader's easy handles, which its several libcurl
// threads use at once: libcurl asks the share to lock around each access.
typedef struct {
  pthread_mutex_t mutex;
} magpie_share_lock;

static void magpie_share_lock_function(CURL *handle, curl_lock_data data, curl_lock_access access, void *user) {
  (void)handle;
  (void)data;
  (void)access;
  pthread_mutex_lock(&((magpie_share_lock *)user)->mutex);
}

static void magpie_share_unlock_function(CURL *handle, curl_lock_data data, void *user) {
  (void)handle;
  (void)data;
  pthread_mutex_unlock(&((magpie_share_lock *)user)->mutex);
}

/// A share of cookies, or NULL; its lock goes to *lock_out. Free both
/// with magpie_cookie_share_free.
static inline CURLSH *magpie_cookie_share_new(void **lock_out) {
  magpie_share_lock *lock = (magpie_share_lock *)malloc(sizeof(magpie_share_lock));
  if (lock == NULL) return NULL;
  pthread_mutex_init(&lock->mutex, NULL);
  CURLSH *share = curl_share_init();
  if (share == NULL) {
    pthread_mutex_destroy(&lock->mutex);
    free(lock);
    return NULL;
  }
  curl_share_setopt(share, CURLSHOPT_LOCKFUNC, magpie_share_lock_function);
  curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, magpie_share_unlock_function);
  curl_share_setopt(share, CURLSHOPT_USERDATA, lock);
  curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
  *lock_out = lock;
  return share;
}

/// Frees a share made by magpie_cookie_share_new, once no handle uses it.
static inline void magpie_cookie_share_free(CURLSH *share, void *lock) {
  curl_share_cleanup(share);
  pthread_mutex_destroy(&((magpie_share_lock *)lock)->mutex);
  free(lock);
}
