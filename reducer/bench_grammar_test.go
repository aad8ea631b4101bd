package reducer

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkGrammar: what one FuzzGrammar execution costs, over a fixed
// set of random inputs of the fuzzer's usual length (a profile of the
// fuzz target's per-input function; -fuzz takes no -cpuprofile).
func BenchmarkGrammar(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := make([][]byte, 64)
	for i := range inputs {
		in := make([]byte, 64)
		for j := range in {
			in[j] = byte(rng.UintN(256))
		}
		inputs[i] = in
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		checkGrammar(b, grammarSequence(&byteSource{b: inputs[i%len(inputs)]}))
	}
}
