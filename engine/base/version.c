#include "version.h"

#ifndef JANGGUN_VERSION
#error "JANGGUN_VERSION must be set by the build (the Makefile does)"
#endif

const char janggun_version[] = JANGGUN_VERSION;
