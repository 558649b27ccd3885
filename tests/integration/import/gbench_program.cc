// SPDX-License-Identifier: Apache-2.0
// A small Google Benchmark program whose JSON test_import.py imports:
// a byte rate (SetBytesProcessed), an item rate and a plain time.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

static void BM_copy(benchmark::State &state)
{
	std::vector<char> src(static_cast<size_t>(state.range(0)), 'x');
	std::vector<char> dst(src.size());

	for (auto _ : state) {
		std::memcpy(dst.data(), src.data(), src.size());
		benchmark::DoNotOptimize(dst.data());
		benchmark::ClobberMemory();
	}
	state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
				state.range(0));
	state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_copy)->Arg(4096);

static void BM_sum(benchmark::State &state)
{
	long s = 0;

	for (auto _ : state)
		benchmark::DoNotOptimize(s += 1);
}
BENCHMARK(BM_sum);

BENCHMARK_MAIN();
