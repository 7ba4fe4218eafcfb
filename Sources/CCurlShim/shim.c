#include "CCurlShim.h"

CURLcode ingest_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) { return curl_easy_setopt(easy, option, value); }

CURLcode ingest_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) { return curl_easy_setopt(easy, option, value); }

CURLcode ingest_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) { return curl_easy_setopt(easy, option, value); }

CURLcode ingest_curl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback callback) { return curl_easy_setopt(easy, option, callback); }

CURLcode ingest_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) { return curl_easy_getinfo(easy, info, value); }

CURLcode ingest_curl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value) { return curl_easy_getinfo(easy, info, value); }

CURLMcode ingest_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl_multi_setopt(multi, option, value); }
