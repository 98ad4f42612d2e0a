#!/usr/bin/env bash
# Builds memory-benchmarks (Maven profile "bench", not part of the default build) and runs the JMH
# suite. Writes memory-benchmarks/target/bench-summary.txt, one line a metric:
#   <metric> <value> <unit> <reference-value> <ratio>
# and prints it. --quick: few, short iterations (under 10 minutes on 2 cores).
# Any other arguments go to the suite, e.g. --include 'StoreBenchmarks.*'.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -q -P bench -pl memory-benchmarks,memory-cli -am package -DskipTests
java -jar memory-benchmarks/target/benchmarks.jar --out memory-benchmarks/target/bench-summary.txt "$@"
