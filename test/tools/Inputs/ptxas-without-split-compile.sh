#!/bin/sh
# A ptxas from before -split-compile: its --help does not list the option,
# and it rejects it. Everything else goes to the real ptxas ($REAL_PTXAS).
for a in "$@"; do
  case "$a" in
    --help) echo "--opt-level <N>"; exit 0 ;;
    -split-compile) echo "ptxas fatal   : Unknown option '-split-compile'" >&2; exit 1 ;;
  esac
done
exec "$REAL_PTXAS" "$@"
