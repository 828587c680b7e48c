package tmux

import "sync/atomic"

// bufferSeq names paste buffers uniquely within the process.
var bufferSeq atomic.Int64
