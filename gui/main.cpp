// dctwin-gui: placeholder entry point; the Qt6 application arrives with the GUI issue
#include <cstdio>

int main() {
  std::puts("dctwin-gui: the desktop application is not built yet; use the dctwin CLI");
  return 0;
}
