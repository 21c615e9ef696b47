// The mixed load lives with the benchmarks, whose mixed-load row runs it too (tests/bench/mixed-load.ts).
export { mixedLoad, type LoadReport } from '#tests/bench/lib/mixed-load';
