// Prints brrr::checkModelLibrary's verdict on each file named: what a C++
// host runs before dlopen of a model.so.
#include "brrr_runtime.hpp"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    brrr::Error e = brrr::checkModelLibrary(argv[i]);
    const char *base = std::strrchr(argv[i], '/');
    std::printf("%s: %s\n", base ? base + 1 : argv[i],
                e ? e.message.c_str() : "ok");
  }
  return 0;
}
