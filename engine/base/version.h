/* The product's name, version and authors. The version is set by the build: `git describe` of the
 * source tree (a tag v1.2 gives "1.2", "1.2-3-gabc1234" three commits later; without a tag the base
 * version and the commit, "0.2-gabc1234"; "-dirty" with uncommitted changes), or the base version
 * alone for a source tree without git. */
#ifndef JANGGUN_VERSION_H
#define JANGGUN_VERSION_H

extern const char janggun_version[]; /* "0.2-gabc1234" */

#define JANGGUN_AUTHOR "the Janggun developers"

#endif
