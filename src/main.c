#include "halo.h"
int main(void) { return 0; }
