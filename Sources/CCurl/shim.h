#ifndef ROWKIT_CCURL_SHIM_H
#define ROWKIT_CCURL_SHIM_H
// libcurl, loaded with dlopen at the first download instead of linked: linking it makes the
// dynamic loader map libcurl and its ~25 libraries (TLS, HTTP/2, LDAP, Kerberos, ...) into
// every rowkit process, about 7 ms of each start, although most renders read local images.
// Nothing here links libcurl; the header only gives the types and option numbers.
#include <dlfcn.h>
#include <stddef.h>
#include <curl/curl.h>

/// The libcurl functions RowKit calls, found in the loaded library.
typedef struct {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *handle);
  CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
  CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
  const char *(*easy_strerror)(CURLcode code);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_cleanup)(CURLM *multi);
  CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
  CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
  CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
  CURLMcode (*multi_perform)(CURLM *multi, int *running);
  CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *extra, unsigned count, int timeout_ms, int *ready);
  CURLMcode (*multi_wakeup)(CURLM *multi);
  CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
  curl_version_info_data *(*version_info)(CURLversion version);
  const char *(*multi_strerror)(CURLMcode code);
} ccurl_functions;

/// Loads `library` (e.g. "libcurl.so.4") and fills `functions`; returns NULL on success, or
/// the loader's message. A loaded library stays loaded for the life of the process; one that
/// lacks a function is closed again.
static inline const char *ccurl_load(const char *library, ccurl_functions *functions) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) return dlerror();
#define CCURL_FIND(field, symbol) \
  if ((*(void **)&functions->field = dlsym(handle, symbol)) == NULL) { \
    dlclose(handle); \
    return "not libcurl: it has no " symbol; \
  }
  CCURL_FIND(global_init, "curl_global_init")
  CCURL_FIND(easy_init, "curl_easy_init")
  CCURL_FIND(easy_cleanup, "curl_easy_cleanup")
  CCURL_FIND(easy_setopt, "curl_easy_setopt")
  CCURL_FIND(easy_getinfo, "curl_easy_getinfo")
  CCURL_FIND(easy_strerror, "curl_easy_strerror")
  CCURL_FIND(multi_init, "curl_multi_init")
  CCURL_FIND(multi_cleanup, "curl_multi_cleanup")
  CCURL_FIND(multi_setopt, "curl_multi_setopt")
  CCURL_FIND(multi_add_handle, "curl_multi_add_handle")
  CCURL_FIND(multi_remove_handle, "curl_multi_remove_handle")
  CCURL_FIND(multi_perform, "curl_multi_perform")
  CCURL_FIND(multi_poll, "curl_multi_poll")
  CCURL_FIND(multi_wakeup, "curl_multi_wakeup")
  CCURL_FIND(multi_info_read, "curl_multi_info_read")
  CCURL_FIND(version_info, "curl_version_info")
  CCURL_FIND(multi_strerror, "curl_multi_strerror")
#undef CCURL_FIND
  return NULL;
}

/// The loaded library's version record, asked for in the layout this header was compiled with
/// (`CURLVERSION_NOW` is a macro, which Swift does not see).
static inline curl_version_info_data *ccurl_version_info(const ccurl_functions *f) {
  return f->version_info(CURLVERSION_NOW);
}

// Swift cannot call C's variadic functions; these pass each argument with its own type.

static inline CURLcode ccurl_setopt_long(const ccurl_functions *f, CURL *handle, CURLoption option, long value) {
  return f->easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_offset(const ccurl_functions *f, CURL *handle, CURLoption option, curl_off_t value) {
  return f->easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(const ccurl_functions *f, CURL *handle, CURLoption option, const void *value) {
  return f->easy_setopt(handle, option, value);
}

/// The body callback: libcurl calls it with each piece of the response body.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ccurl_setopt_write(const ccurl_functions *f, CURL *handle, ccurl_write_callback callback, void *context) {
  CURLcode code = f->easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
  return code != CURLE_OK ? code : f->easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

static inline long ccurl_response_code(const ccurl_functions *f, CURL *handle) {
  long code = 0;
  return f->easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0;
}

static inline CURLMcode ccurl_multi_setopt_long(const ccurl_functions *f, CURLM *multi, CURLMoption option, long value) {
  return f->multi_setopt(multi, option, value);
}

/// What a finished transfer's message says: its handle, and the result code if it is done.
static inline int ccurl_message_done(const CURLMsg *message, CURL **handle, CURLcode *result) {
  if (message->msg != CURLMSG_DONE) return 0;
  *handle = message->easy_handle;
  *result = message->data.result;
  return 1;
}
#endif
