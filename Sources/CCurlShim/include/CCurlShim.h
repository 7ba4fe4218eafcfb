#ifndef INGEST_CCURL_SHIM_H
#define INGEST_CCURL_SHIM_H

// One-line typed wrappers for libcurl's variadic setopt and getinfo calls, one per argument type.
#include <curl/curl.h>

CURLcode ingest_curl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode ingest_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode ingest_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode ingest_curl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback callback);
CURLcode ingest_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode ingest_curl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value);
CURLMcode ingest_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

// Opens libcurl (see CLazyLibrary.h): 0, or -1 with the loader's reason in `error`.
int ingest_curl_open(char *error, size_t error_size);

#endif
