/* Data files read as a stream of text, plain or xz-compressed (the real-game corpus ships as
 * games.jsonl.xz). The format is told by the file's first bytes, never by its name, so a `.jsonl`
 * that is really compressed, or a `.xz` that is not, still reads. Readers use the stream with
 * getline/fgets as with any FILE; a truncated or corrupt compressed file shows up when the file is
 * closed, as a message that names it. */
#ifndef JANGGUN_DATAFILE_H
#define JANGGUN_DATAFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct DataFile DataFile;

/* NULL with "cannot open 'PATH': REASON" when the file cannot be read. */
DataFile *datafile_open(const char *path, char *err, size_t err_size);

/* The decompressed text, read-only; it ends early (as at the end of the file) on bad compressed data. */
FILE *datafile_stream(DataFile *file);

/* Whether the text came from xz data. */
bool datafile_compressed(const DataFile *file);

/* Closes and frees. false with "PATH: MESSAGE" when the stream ended on an error: a truncated or
 * corrupt xz file, or a read error. */
bool datafile_close(DataFile *file, char *err, size_t err_size);

#endif
