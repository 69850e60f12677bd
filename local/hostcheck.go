package local

import (
	"net"
	"net/http"
	"strconv"
	"strings"
)

// WithHostCheck makes the server answer only requests whose Host header
// names it, so that a web page whose domain is rebound to 127.0.0.1 (DNS
// rebinding) cannot call a server on the developer's machine: browsers
// send the page's domain as the Host.
//
// listen is the address the server listens on. Accepted are:
//   - on a loopback or unspecified address (0.0.0.0, ::), the loopback
//     names localhost, 127.0.0.1 and [::1] with its port;
//   - on a specific address, that address with its port;
//   - on an unspecified address, any IP address with any port (the
//     addresses clients use behind NAT or port mapping are not known, and
//     a rebound page always sends a name, never an address);
//   - each of names: "name" with any port, "name:port" with that port only,
//     and "*", which turns the check off.
//
// Other requests get a 403 AccessDeniedException. DescribeEndpoints answers
// a checked Host; without WithHostCheck it answers the region's public
// endpoint name instead of echoing the Host. Several WithHostCheck options
// add up (listen may be nil): dynamotest sets one, a test may add names.
func WithHostCheck(listen net.Addr, names ...string) Option {
	return func(s *Server) {
		if s.hosts == nil {
			s.hosts = &hostCheck{exact: map[string]bool{}, anyPort: map[string]bool{}}
		}
		s.hosts.add(listen, names)
	}
}

type hostCheck struct {
	exact   map[string]bool // "name:port", lower case
	anyPort map[string]bool // "name", lower case
	anyIP   bool            // any IP address literal
	off     bool            // "*"
}

func (h *hostCheck) add(listen net.Addr, names []string) {
	if listen != nil {
		host, port, err := net.SplitHostPort(listen.String())
		if err == nil {
			ip := net.ParseIP(host)
			switch {
			case ip == nil:
				h.exact[strings.ToLower(listen.String())] = true
			case ip.IsLoopback() || ip.IsUnspecified():
				for _, n := range []string{"localhost", "127.0.0.1", "[::1]"} {
					h.exact[n+":"+port] = true
				}
				h.anyIP = h.anyIP || ip.IsUnspecified()
			default:
				h.exact[net.JoinHostPort(ip.String(), port)] = true
			}
		}
	}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		switch {
		case n == "*":
			h.off = true
		case n == "":
		case strings.HasSuffix(n, "]") || !strings.Contains(n, ":"): // a name, or a bracketed IPv6 address
			h.anyPort[strings.Trim(n, "[]")] = true
		default:
			if host, port, err := net.SplitHostPort(n); err == nil {
				h.exact[net.JoinHostPort(host, port)] = true
			} else {
				h.anyPort[n] = true // a bare IPv6 address
			}
		}
	}
}

// allows reports whether the Host header value host names this server
// (any does without a check).
func (h *hostCheck) allows(host string) bool {
	if h == nil || h.off || h.exact[host] { // the common case: "127.0.0.1:8000" as sent
		return true
	}
	host = strings.ToLower(host)
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = strings.Trim(host, "[]"), "80"
	}
	name = strings.TrimSuffix(name, ".")
	if _, err := strconv.Atoi(port); err != nil || name == "" {
		return false
	}
	return h.exact[net.JoinHostPort(name, port)] || h.anyPort[name] || (h.anyIP && net.ParseIP(name) != nil)
}

// checked returns host if the check vouched for it, else "".
func (h *hostCheck) checked(host string) string {
	if h == nil || h.off {
		return ""
	}
	return host
}

var errHostNotAllowed = &Error{Type: "AccessDeniedException", Status: http.StatusForbidden,
	Message: "The Host header does not name this server; allow the name with dynamo local --allow-host (local.WithHostCheck)"}
