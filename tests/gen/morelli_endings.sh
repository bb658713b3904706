#!/bin/sh
# Builds tests/gen/morelli_endings.c against the test build's library and
# writes tests/data/morelli_endings.txt (positions a size, seed).
set -e
LIB=$(find engine -name '*.c' | sed 's|^|build/test/|; s|\.c$|.o|')
cc -std=c11 -D_GNU_SOURCE -O2 -Iengine -Itests tests/gen/morelli_endings.c tests/morelli_grid.c \
    build/test/tests/testdata.o $LIB -o build/test/morelli_endings -lcmocka -lm -pthread
build/test/morelli_endings "${1:-20}" "${2:-1}" "${3:-0}" > tests/data/morelli_endings.txt
