#include "CCurlShim.h"
#include "CLazyLibrary.h"

// Every libcurl function photoingest calls, here and from Swift: each a trampoline into libcurl,
// opened by ingest_curl_open (see CLazyLibrary.h). libcurl brings 30 libraries whose constructors
// (GnuTLS's above all) cost every run about 7 ms; only runs against a server need them.
#define INGEST_CURL_FUNCTIONS(X, table) \
    X(table, 0, curl_global_init) \
    X(table, 1, curl_easy_init) \
    X(table, 2, curl_easy_cleanup) \
    X(table, 3, curl_easy_setopt) \
    X(table, 4, curl_easy_getinfo) \
    X(table, 5, curl_easy_strerror) \
    X(table, 6, curl_multi_init) \
    X(table, 7, curl_multi_cleanup) \
    X(table, 8, curl_multi_setopt) \
    X(table, 9, curl_multi_add_handle) \
    X(table, 10, curl_multi_remove_handle) \
    X(table, 11, curl_multi_perform) \
    X(table, 12, curl_multi_poll) \
    X(table, 13, curl_multi_wakeup) \
    X(table, 14, curl_multi_info_read) \
    X(table, 15, curl_mime_init) \
    X(table, 16, curl_mime_free) \
    X(table, 17, curl_mime_addpart) \
    X(table, 18, curl_mime_name) \
    X(table, 19, curl_mime_filename) \
    X(table, 20, curl_mime_type) \
    X(table, 21, curl_mime_data) \
    X(table, 22, curl_mime_data_cb) \
    X(table, 23, curl_slist_append) \
    X(table, 24, curl_slist_free_all)

INGEST_LAZY_FUNCTIONS(ingest_curl_table, INGEST_CURL_FUNCTIONS)

int ingest_curl_open(char *error, size_t error_size) {
    const char *const sonames[] = {"libcurl.so.4"};
    return ingest_lazy_open(sonames, 1, ingest_curl_table_names, ingest_curl_table, ingest_curl_table_count, error, error_size);
}

CURLcode ingest_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) { return curl_easy_setopt(easy, option, value); }

CURLcode ingest_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) { return curl_easy_setopt(easy, option, value); }

CURLcode ingest_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) { return curl_easy_setopt(easy, option, value); }

CURLcode ingest_curl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback callback) { return curl_easy_setopt(easy, option, callback); }

CURLcode ingest_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) { return curl_easy_getinfo(easy, info, value); }

CURLcode ingest_curl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value) { return curl_easy_getinfo(easy, info, value); }

CURLMcode ingest_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl_multi_setopt(multi, option, value); }
