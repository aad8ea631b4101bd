// Package redistest starts Debian's redis-server for tests: on a free
// loopback port, in a temporary directory, stopped when the test ends;
// one server (Start), or a Redis Cluster of masters and replicas
// (StartCluster) with failovers on demand.
// Without the binary a test is skipped, unless CI is "true" or
// AGUI_REQUIRE_REDIS is set (.ci/run sets it), where it fails.
package redistest
