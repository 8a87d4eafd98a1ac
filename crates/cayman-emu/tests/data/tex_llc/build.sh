#!/bin/sh
# Rebuild sample.o / sample.s from sample.ll with llc-14 (r600, cayman).
set -eu
cd "$(dirname "$0")"
LLC=${LLC:-llc-14}
$LLC -march=r600 -mcpu=cayman -filetype=obj sample.ll -o sample.o
$LLC -march=r600 -mcpu=cayman -show-mc-encoding sample.ll -o sample.s
