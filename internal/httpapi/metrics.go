package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the HTTP layer's own series. Routes are labelled by the
// mux pattern, never the raw path, so run ids cannot blow up cardinality.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// terminals are the open terminal streams; terminalBytes what they
	// sent (the frames, as written).
	terminals     prometheus.Gauge
	terminalBytes prometheus.Counter
}

func newMetrics(reg *prometheus.Registry, b *Broker) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lab_http_requests_total",
			Help: "HTTP requests by route pattern and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "lab_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern and status code; SSE streams are not observed.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route", "code"}),
		terminals: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "lab_terminal_streams",
			Help: "Open terminal streams (a run's pane watched live).",
		}),
		terminalBytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lab_terminal_stream_bytes_total",
			Help: "Bytes of SSE frames sent on terminal streams.",
		}),
	}
	own := []prometheus.Collector{
		m.requests, m.duration, m.terminals, m.terminalBytes,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "lab_sse_subscribers",
			Help: "Live SSE event streams.",
		}, func() float64 { return float64(b.Subscribers()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "lab_sse_events_published_total",
			Help: "Events published to SSE subscribers.",
		}, func() float64 { return float64(b.Published()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "lab_sse_subscribers_dropped_total",
			Help: "SSE subscribers dropped because they fell behind.",
		}, func() float64 { return float64(b.Dropped()) }),
	}
	for _, c := range own {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	// The process and Go runtime series (RSS, goroutines) may already be
	// registered by the caller; that is fine.
	for _, c := range []prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	} {
		if err := reg.Register(c); err != nil {
			var dup prometheus.AlreadyRegisteredError
			if !errors.As(err, &dup) {
				return nil, err
			}
		}
	}
	return m, nil
}

func (s *Server) metricsHandler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelError),
	})
}

// eventsPattern and terminalPattern are the SSE routes; their duration is
// the stream's life, so they are counted but kept out of the latency
// histogram.
const (
	eventsPattern   = "GET /api/v1/events"
	terminalPattern = "GET /api/v1/runs/{id}/terminal"
)

// observe wraps every request: it captures the status, turns a panic into
// a logged 500, and records the request's metrics under the pattern the
// mux matched (the mux sets r.Pattern on this very request).
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("handler panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", stack())
				if !sw.wrote {
					writeJSON(sw, http.StatusInternalServerError, errorBody{"internal error"})
				}
			}
			route := r.Pattern
			if route == "" {
				route = "unmatched"
			}
			code := strconv.Itoa(sw.status())
			s.metrics.requests.WithLabelValues(route, code).Inc()
			if route != eventsPattern && route != terminalPattern {
				s.metrics.duration.WithLabelValues(route, code).Observe(time.Since(start).Seconds())
			}
			s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "route", route, "status", code, "duration", time.Since(start))
		}()
		next.ServeHTTP(sw, r)
	})
}

// statusWriter remembers the status a handler wrote. Unwrap lets
// http.ResponseController reach the connection for Flush and deadlines.
type statusWriter struct {
	http.ResponseWriter
	code  int
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote && code >= 200 {
		w.code, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.code, w.wrote = http.StatusOK, true
	}
	return w.ResponseWriter.Write(b)
}

// Flush is for code that asserts http.Flusher instead of using a
// ResponseController.
func (w *statusWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) status() int {
	if !w.wrote {
		return http.StatusOK // net/http sends 200 for a handler that wrote nothing
	}
	return w.code
}
