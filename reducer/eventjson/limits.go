package eventjson

// The default limits: what a zero field of Limits means.
const (
	DefaultMaxEventBytes = 16 << 20 // one event's JSON text
	DefaultMaxDepth      = 512      // its nesting
	DefaultMaxFieldBytes = 32 << 20 // one streamed field (text, arguments)
)

// Limits bound what a decoder accepts. A zero or negative field means its
// default.
type Limits struct {
	MaxEventBytes int
	MaxDepth      int
	MaxFieldBytes int
}

// Defaults returns l with every unset limit at its default.
func (l Limits) Defaults() Limits {
	l.MaxEventBytes = orDefault(l.MaxEventBytes, DefaultMaxEventBytes)
	l.MaxDepth = orDefault(l.MaxDepth, DefaultMaxDepth)
	l.MaxFieldBytes = orDefault(l.MaxFieldBytes, DefaultMaxFieldBytes)
	return l
}

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}
