package main

import "net/http"

func (s *server) relayAgent(w http.ResponseWriter, r *http.Request) { s.proxy.ServeHTTP(w, r) }
