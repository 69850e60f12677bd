package local

import (
	"net/http"

	"github.com/dynamogo/dynamo/local/storage"
)

// serveHealth answers GET /: DynamoDB's health line while the server can
// take writes, and 503 with the reason while its storage engine cannot (a
// durable engine whose disk filled up or failed), so a readiness probe
// takes the server out of rotation. Engine errors name files and offsets,
// never item contents.
func (s *Server) serveHealth(w http.ResponseWriter, id reqID) {
	if h, ok := s.engine.(storage.HealthChecker); ok {
		if err := h.Health(); err != nil {
			s.write(w, id, http.StatusServiceUnavailable, []byte("unhealthy: the storage engine cannot write: "+err.Error()+"\n"), "text/plain")
			return
		}
	}
	s.write(w, id, http.StatusOK, []byte("healthy: dynamodb."+s.region+".amazonaws.com "), "text/plain")
}
